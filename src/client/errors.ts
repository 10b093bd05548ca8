/**
 * The error tree of design section 6. One root, `AgentHostingError`.
 *
 * API errors carry the status, the service's code and message and the request
 * path; never a header, so never the API key. `toJSON` keeps
 * `JSON.stringify(error)` to the same safe fields.
 */

export interface ApiErrorDetails {
  status: number;
  code: string | undefined;
  message: string;
  method: string;
  path: string;
}

export class AgentHostingError extends Error {
  override readonly name: string = "AgentHostingError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
}

/** A non-2xx answer from the service. */
export class ApiError extends AgentHostingError {
  override readonly name: string = "ApiError";
  readonly status: number;
  readonly code: string | undefined;
  readonly method: string;
  readonly path: string;
  /** The service's own message, without the status prefix. */
  readonly serviceMessage: string;

  constructor(details: ApiErrorDetails) {
    super(`${details.method} ${details.path} failed with ${details.status}${details.code ? ` ${details.code}` : ""}: ${details.message}`);
    this.status = details.status;
    this.code = details.code;
    this.method = details.method;
    this.path = details.path;
    this.serviceMessage = details.message;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, code: this.code, method: this.method, path: this.path };
  }
}

export class BadRequestError extends ApiError {
  override readonly name = "BadRequestError";
}
export class AuthenticationError extends ApiError {
  override readonly name = "AuthenticationError";
}
export class NotFoundError extends ApiError {
  override readonly name = "NotFoundError";
}
export class ConflictError extends ApiError {
  override readonly name = "ConflictError";
}
export class RateLimitError extends ApiError {
  override readonly name = "RateLimitError";
  /** Seconds the service asked to wait (Retry-After), when it said. */
  retryAfterSeconds: number | undefined;
}
export class ServerError extends ApiError {
  override readonly name = "ServerError";
}

/** The request never got an answer: refused, reset, or closed mid-response. */
export class ConnectionError extends AgentHostingError {
  override readonly name = "ConnectionError";
  /** True when the request was provably never sent (for example ECONNREFUSED). */
  readonly notSent: boolean;
  readonly method: string;
  readonly path: string;

  constructor(method: string, path: string, detail: string, notSent: boolean, cause?: unknown) {
    super(`${method} ${path}: connection failed (${detail})`, { cause });
    this.notSent = notSent;
    this.method = method;
    this.path = path;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), method: this.method, path: this.path, notSent: this.notSent };
  }
}

export class TimeoutError extends AgentHostingError {
  override readonly name = "TimeoutError";
  readonly method: string;
  readonly path: string;

  constructor(method: string, path: string, timeoutMs: number, cause?: unknown) {
    super(`${method} ${path}: no answer within ${timeoutMs} ms`, { cause });
    this.method = method;
    this.path = path;
  }
}

/** The answer did not have the documented shape. */
export class ResponseValidationError extends AgentHostingError {
  override readonly name = "ResponseValidationError";
  readonly path: string;
  /** Dotted paths of the fields that broke the contract. */
  readonly fields: string[];

  constructor(method: string, path: string, fields: string[], detail: string) {
    super(`${method} ${path}: the response does not match the documented shape: ${detail}`);
    this.path = path;
    this.fields = fields;
  }
}

/** Input that breaks a rule of design section 2, found before any request is sent. */
export class InputValidationError extends AgentHostingError {
  override readonly name = "InputValidationError";
  readonly failures: { property: string; reason: string }[];

  constructor(failures: { property: string; reason: string }[]) {
    super(`invalid input: ${failures.map((f) => (f.property ? `${f.property}: ${f.reason}` : f.reason)).join("; ")}`);
    this.failures = failures;
  }
}

/** A missing or malformed setting (API key, base URL). */
export class ConfigurationError extends AgentHostingError {
  override readonly name = "ConfigurationError";
}
