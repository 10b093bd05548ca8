/** The shapes the emulator's handlers take and give. */
export interface RequestContext {
  method: string;
  /** Raw path, without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function reply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

export function errorReply(status: number, code: string, message: string, headers?: Record<string, string>): Reply {
  return reply(status, { error: message, code }, headers);
}

/** Splits a request target into its raw path and its query (never throws, unlike `new URL` on "//x"). */
export function splitTarget(target: string): { path: string; query: URLSearchParams } {
  const q = target.indexOf("?");
  return q < 0
    ? { path: target, query: new URLSearchParams() }
    : { path: target.slice(0, q), query: new URLSearchParams(target.slice(q + 1)) };
}

/** Decoded path segments, or undefined when a segment is not valid percent-encoding. */
export function segmentsOf(path: string): string[] | undefined {
  try {
    return path.split("/").filter((s) => s !== "").map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

export function parseJsonBody(ctx: RequestContext): { ok: true; value: unknown } | { ok: false; reply: Reply } {
  const type = String(ctx.headers["content-type"] ?? "");
  if (!/^application\/json\b/i.test(type)) {
    return { ok: false, reply: errorReply(400, "GENERIC_BAD_REQUEST", "Content-Type must be application/json") };
  }
  try {
    return { ok: true, value: JSON.parse(ctx.body) };
  } catch {
    return { ok: false, reply: errorReply(400, "GENERIC_BAD_REQUEST", "the body is not valid JSON") };
  }
}
