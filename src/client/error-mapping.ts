/** From an HTTP answer or a transport failure to the error tree of errors.ts. */
import { ApiError, AuthenticationError, BadRequestError, ConflictError, ConnectionError, NotFoundError, RateLimitError, ServerError, TimeoutError } from "./errors";
import type { ApiErrorDetails } from "./errors";
import { loadSchemas } from "./parse";

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(raw.trim())) return Number(raw.trim());
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

async function serviceMessage(text: string): Promise<{ message: string; code: string | undefined }> {
  const { errorBodySchema } = await loadSchemas();
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return { message: parsed.data.error, code: parsed.data.code };
  } catch {
    // not JSON: fall through to the raw text
  }
  const trimmed = text.trim().slice(0, 300);
  return { message: trimmed === "" ? "(empty body)" : trimmed, code: undefined };
}

export async function apiErrorFrom(
  status: number,
  text: string,
  headers: Record<string, string | string[] | undefined>,
  method: string,
  path: string,
): Promise<ApiError> {
  const { message, code } = await serviceMessage(text);
  const details: ApiErrorDetails = { status, code, message, method, path };
  if (status === 400) return new BadRequestError(details);
  if (status === 401 || status === 403) return new AuthenticationError(details);
  if (status === 404) return new NotFoundError(details);
  if (status === 409) return new ConflictError(details);
  if (status === 429) return new RateLimitError({ ...details, retryAfterSeconds: parseRetryAfter(headers["retry-after"]) });
  if (status >= 500) return new ServerError(details);
  return new ApiError(details);
}

const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return (error as { code?: string }).code;
}

/** A failure of undici (or the network) as ConnectionError or TimeoutError, without any header. */
export function transportErrorFrom(error: unknown, method: string, path: string, timeoutMs: number): Error {
  const code = codeOf(error);
  if ((code && TIMEOUT_CODES.has(code)) || (error as { name?: string }).name === "TimeoutError") {
    return new TimeoutError(method, path, timeoutMs);
  }
  const detail = code ?? ((error as { message?: string }).message || "unknown error");
  return new ConnectionError(method, path, detail, code !== undefined && NOT_SENT_CODES.has(code));
}
