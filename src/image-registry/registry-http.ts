/**
 * One request to a registry or its token service over undici, with a time
 * limit and a capped body. A request that gets no answer (DNS, connection,
 * TLS, time limit) becomes an ImageRegistryError of kind "unreachable"
 * naming the host and the error's code; an aborted signal rejects with the
 * signal's own reason. The scheme rule: https, and plain http only to a host
 * on this machine or one the caller allowed.
 */
import type { Dispatcher } from "undici";
import { isLoopbackHost } from "../client/connection-settings";
import type { ImageReference } from "./oci-reference";
import { serverKey } from "./registry-credentials";
import { ImageRegistryError, UNPINNED_FIX, describeReference } from "./registry-errors";

/** Manifests and token answers are small; a larger body is not one. */
export const MAX_REGISTRY_BODY_BYTES = 4 * 1024 * 1024;

/** Plain http: `true` for every registry, or the registries (hosts, with port) allowed it. */
export type InsecureHttpAllowance = boolean | readonly string[];

export interface RegistryAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface RegistryExchange {
  method: "GET" | "HEAD";
  url: URL;
  headers: Record<string, string>;
  /** What the request is about, for the "unreachable" message. */
  reference: ImageReference;
  signal: AbortSignal;
}

/** Whether plain http may be used with `host` (host and port, as in a URL). */
export function mayUsePlainHttp(host: string, allowance: InsecureHttpAllowance): boolean {
  const hostname = host.replace(/:\d+$/, "");
  if (isLoopbackHost(hostname)) return true;
  if (allowance === true) return true;
  return Array.isArray(allowance) && allowance.some((entry) => serverKey(entry) === host.toLowerCase());
}

/** The origin of a registry's distribution API: http when allowed (see mayUsePlainHttp), else https. */
export function registryOrigin(apiHost: string, allowance: InsecureHttpAllowance): string {
  return `${mayUsePlainHttp(apiHost, allowance) ? "http" : "https"}://${apiHost}`;
}

function errorCode(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string") return code;
    current = current.cause;
  }
  return error instanceof Error ? error.name : "unknown error";
}

async function readCapped(body: Dispatcher.ResponseData["body"]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_REGISTRY_BODY_BYTES) {
      body.destroy();
      throw new Error(`body larger than ${MAX_REGISTRY_BODY_BYTES} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Sends one request and reads its whole answer, whatever the status. */
export async function registryRequest(dispatcher: Dispatcher, exchange: RegistryExchange, timeoutMs: number): Promise<RegistryAnswer> {
  const { method, url, headers, reference, signal } = exchange;
  signal.throwIfAborted();
  try {
    const response = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal,
    });
    const body = await readCapped(response.body);
    return { status: response.statusCode, headers: response.headers, body };
  } catch (error) {
    signal.throwIfAborted();
    const code = errorCode(error);
    // A TLS failure is often a registry that serves plain http.
    const plainHttp = url.protocol === "https:" && /SSL|TLS|EPROTO|CERT/.test(code) ? `, or, if it serves plain http, name ${url.host} in allowInsecureHttp` : "";
    throw new ImageRegistryError(
      `cannot reach ${url.host} (${code}) to resolve the digest of ${describeReference(reference)}: ` +
        `check that the registry's address is right and that it answers from here${plainHttp}, ${UNPINNED_FIX}`,
      { kind: "unreachable", reference },
      { cause: error },
    );
  }
}

/** A header's first value. */
export function headerValue(headers: RegistryAnswer["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
