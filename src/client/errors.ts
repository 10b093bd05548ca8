/**
 * The package's errors. One root, `AgentHostingError`; a re-thrown error
 * keeps the original as its `cause`. Every field is read-only.
 *
 * API errors carry the status, the service's code and message and the request
 * path; never a header, so never the API key. `toJSON` keeps
 * `JSON.stringify(error)` to the same safe fields.
 *
 * An error's `name` is its class's name, set by the root's constructor from
 * the table at the end of this file (a bundler may rename classes, the table
 * keeps the names). A class that has no subclass declares its name's literal
 * type, so a program can narrow on `error.name`; test/unit/error-names.test.ts
 * holds each declared type to the name the class gets.
 */

export interface ApiErrorDetails {
  status: number;
  code: string | undefined;
  message: string;
  method: string;
  path: string;
  /** Seconds the service asked to wait (Retry-After), on a 429. */
  retryAfterSeconds?: number | undefined;
}

/** Each class's name, by class (filled by the table at the end of this file). */
const classNames = new Map<object, string>();

/** The name of `kind`, or of its nearest parent in classNames (a user's subclass takes its parent's). */
function nameOfClass(kind: object): string {
  for (let k: object | null = kind; k !== null; k = Object.getPrototypeOf(k) as object | null) {
    const name = classNames.get(k);
    if (name !== undefined) return name;
  }
  return "AgentHostingError";
}

export class AgentHostingError extends Error {
  override readonly name: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = nameOfClass(new.target);
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
}

/** A non-2xx answer from the service. */
export class ApiError extends AgentHostingError {
  readonly status: number;
  readonly code: string | undefined;
  readonly method: string;
  readonly path: string;
  /** The service's own message, without the status prefix. */
  readonly serviceMessage: string;

  constructor(details: ApiErrorDetails, options?: { cause?: unknown }) {
    super(`${details.method} ${details.path} failed with ${details.status}${details.code ? ` ${details.code}` : ""}: ${details.message}`, options);
    this.status = details.status;
    this.code = details.code;
    this.method = details.method;
    this.path = details.path;
    this.serviceMessage = details.message;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, code: this.code, method: this.method, path: this.path };
  }

  /** The same kind of error with a clearer message; this one becomes its cause. */
  withMessage(message: string): this {
    const Kind = this.constructor as new (details: ApiErrorDetails, options?: { cause?: unknown }) => this;
    const { status, code, method, path } = this;
    const retryAfterSeconds = (this as { retryAfterSeconds?: number }).retryAfterSeconds;
    const details: ApiErrorDetails = { status, code, message, method, path, retryAfterSeconds };
    return new Kind(details, { cause: this });
  }
}

/** An answer with status 400. */
export class BadRequestError extends ApiError { declare readonly name: "BadRequestError"; }
/** An answer with status 401 or 403: the service refused the API key. */
export class AuthenticationError extends ApiError { declare readonly name: "AuthenticationError"; }
/** An answer with status 404. */
export class NotFoundError extends ApiError { declare readonly name: "NotFoundError"; }
/** An answer with status 409. */
export class ConflictError extends ApiError { declare readonly name: "ConflictError"; }
/** An answer with a status of 500 or more. */
export class ServerError extends ApiError { declare readonly name: "ServerError"; }

/** An answer with status 429. */
export class RateLimitError extends ApiError {
  declare readonly name: "RateLimitError";
  /** Seconds the service asked to wait (Retry-After), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(details: ApiErrorDetails, options?: { cause?: unknown }) {
    super(details, options);
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** The request never got an answer: refused, reset, or closed mid-response. */
export class ConnectionError extends AgentHostingError {
  declare readonly name: "ConnectionError";
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
  declare readonly name: "TimeoutError";
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
  declare readonly name: "ResponseValidationError";
  readonly path: string;
  /** Dotted paths of the fields that broke the contract. */
  readonly fields: string[];

  constructor(method: string, path: string, fields: string[], detail: string) {
    super(`${method} ${path}: the answer lacks what the package relies on: ${detail}`);
    this.path = path;
    this.fields = fields;
  }
}

/** Input that breaks a rule of the model, found before any request is sent. */
export class InputValidationError extends AgentHostingError {
  declare readonly name: "InputValidationError";
  readonly failures: { property: string; reason: string }[];

  constructor(failures: { property: string; reason: string }[]) {
    super(`invalid input: ${failures.map((f) => (f.property ? `${f.property}: ${f.reason}` : f.reason)).join("; ")}`);
    this.failures = failures;
  }
}

/** A missing or malformed setting (API key, base URL). */
export class ConfigurationError extends AgentHostingError { declare readonly name: "ConfigurationError"; }

/**
 * An agent that exists at the service but whose create or update did not
 * finish (not ready in time, or a failure after the request may have been
 * acted on). It carries the agent's id and last known outputs, so the engine
 * keeps the agent in the state and the next `up` continues with it.
 */
export class AgentIncompleteError extends AgentHostingError {
  readonly id: string;
  /** The outputs the engine keeps in the state; the dynamic host adds its serialized provider. */
  properties: Readonly<Record<string, unknown>>;
  readonly reasons: readonly string[];

  constructor(message: string, id: string, properties: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.id = id;
    this.properties = properties;
    this.reasons = [message];
  }
}

/** The agent was created or updated but did not become ready within readyTimeoutSeconds. */
export class AgentNotReadyError extends AgentIncompleteError { declare readonly name: "AgentNotReadyError"; }

/** A new deployment became ready but its health check (`healthCheck`) found a line; with onFailure "keep" the agent stays as it is, in the state. */
export class AgentUnhealthyError extends AgentIncompleteError { declare readonly name: "AgentUnhealthyError"; }

/**
 * A new deployment failed (not ready within the wait, or its health check
 * found a line) and, with onFailure "rollback", the agent was updated back
 * to its last ready spec: the outputs it carries describe that deployment.
 */
export class AgentRolledBackError extends AgentIncompleteError { declare readonly name: "AgentRolledBackError"; }

/** A create whose deployment failed, with onFailure "rollback": the agent was deleted, and nothing stays in the state. */
export class AgentCreateRolledBackError extends AgentHostingError {
  declare readonly name: "AgentCreateRolledBackError";
  readonly serviceName: string;

  constructor(message: string, serviceName: string) {
    super(message);
    this.serviceName = serviceName;
  }
}

/** `Agent.get` (or an import) named an agent the service does not have. */
export class AgentNotFoundError extends AgentHostingError {
  declare readonly name: "AgentNotFoundError";
  readonly serviceName: string;

  constructor(serviceName: string, cause: ApiError) {
    super(
      `agent "${serviceName}" does not exist at the service (${cause.method} ${cause.path} answered ${cause.status}); check the name and the stack's agent-hosting:baseUrl`,
      { cause },
    );
    this.serviceName = serviceName;
  }
}

const ERROR_CLASSES = {
  AgentHostingError, ApiError, BadRequestError, AuthenticationError, NotFoundError, ConflictError, ServerError, RateLimitError,
  ConnectionError, TimeoutError, ResponseValidationError, InputValidationError, ConfigurationError,
  AgentIncompleteError, AgentNotReadyError, AgentUnhealthyError, AgentRolledBackError, AgentCreateRolledBackError, AgentNotFoundError,
};
for (const [name, kind] of Object.entries(ERROR_CLASSES)) classNames.set(kind, name);
