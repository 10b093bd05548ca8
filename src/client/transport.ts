/**
 * One HTTP exchange over undici: URL building with encoded path segments,
 * the bearer header, a timeout, a capped body read, and every failure turned
 * into the error tree (never carrying a header). The base URL and the key are
 * checked when it is built, so a malformed one never reaches undici.
 */
import { Agent } from "./undici-agent";
import type { Dispatcher } from "undici";
import { CLIENT_OPTION_NAMES, checkApiKey, checkBaseUrl, checkUserAgent } from "./connection-settings";
import { transportErrorFrom, apiErrorFrom } from "./error-mapping";
import { ConfigurationError, ResponseValidationError } from "./errors";

export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  userAgent: string;
  /** Lets the key travel over plain http to a host other than loopback. */
  allowInsecureHttp?: boolean;
  dispatcher?: Dispatcher;
  /** The base URL and key were checked where the provider resolved its settings (connection-settings.ts). */
  checked?: boolean;
}

export interface Exchange {
  method: "GET" | "POST" | "DELETE";
  /** Path segments after the base URL, each encoded here. */
  segments: readonly string[];
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Aborts the request; the call then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

export interface Answer {
  status: number;
  text: string;
}

/** Path shown in errors and notes: the base URL's path plus the encoded segments, no host, no query. */
export function displayPath(basePath: string, segments: readonly string[]): string {
  return `${basePath}/${segments.map(encodeURIComponent).join("/")}`;
}

export class Transport {
  readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly apiKey: string;

  /** Throws a ConfigurationError, before any request, for a malformed base URL, key or user agent. */
  constructor(options: TransportOptions) {
    const url = new URL(options.checked ? options.baseUrl : checkBaseUrl(options.baseUrl, CLIENT_OPTION_NAMES, options.allowInsecureHttp ?? false));
    if (!options.checked) checkApiKey(options.apiKey, CLIENT_OPTION_NAMES);
    checkUserAgent(options.userAgent);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs;
    this.apiKey = options.apiKey;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 32 });
    this.headers = {
      authorization: `Bearer ${options.apiKey}`,
      accept: "application/json",
      "user-agent": options.userAgent,
    };
  }

  /** Foreign text put into an error (an error body, a transport message) without the API key, should it echo it. */
  private redact(text: string): string {
    return this.apiKey === "" ? text : text.split(this.apiKey).join("[REDACTED]");
  }

  private transportError(error: unknown, method: string, path: string): Error {
    const message = (error as { message?: unknown } | null)?.message;
    if (typeof message === "string" && this.apiKey !== "" && message.includes(this.apiKey)) {
      const { name, code, cause } = error as Error & { code?: unknown };
      error = { name, code, cause, message: this.redact(message) };
    }
    // undici refuses, before sending, a request it cannot put on the wire: not a
    // network fault, so not a ConnectionError, which would be retried.
    if ((error as { code?: unknown } | null)?.code === "UND_ERR_INVALID_ARG") {
      return new ConfigurationError(
        `${method} ${path}: the request could not be sent (${this.redact(String(message))}); check the client's settings`,
      );
    }
    return transportErrorFrom(error, method, path, this.timeoutMs);
  }

  pathOf(segments: readonly string[]): string {
    return displayPath(this.basePath, segments);
  }

  /** Sends one request; returns a 2xx answer's text or throws a mapped error (the signal's reason once it is aborted). */
  async send(exchange: Exchange): Promise<Answer> {
    const { signal } = exchange;
    signal?.throwIfAborted();
    try {
      return await this.exchange(exchange);
    } catch (error) {
      signal?.throwIfAborted();
      throw error;
    }
  }

  private async exchange(exchange: Exchange): Promise<Answer> {
    const path = this.pathOf(exchange.segments);
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(exchange.query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    const query = search.toString();
    const headers = { ...this.headers };
    let body: string | undefined;
    if (exchange.body !== undefined) {
      body = JSON.stringify(exchange.body);
      headers["content-type"] = "application/json";
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await this.dispatcher.request({
        origin: this.origin,
        path: query ? `${path}?${query}` : path,
        method: exchange.method,
        headers,
        body: body ?? null,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        ...(exchange.signal ? { signal: exchange.signal } : {}),
      });
    } catch (error) {
      throw this.transportError(error, exchange.method, path);
    }
    const text = await this.readCapped(response, exchange.method, path);
    // Let undici's pool see the connection free again (its drain event runs
    // after the body ends) before the caller's next request is dispatched;
    // otherwise a back-to-back call opens a second connection.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw await apiErrorFrom(response.statusCode, this.redact(text), response.headers, exchange.method, path);
    }
    return { status: response.statusCode, text };
  }

  /** Reads the body as text, refusing more than MAX_RESPONSE_BYTES. */
  private async readCapped(response: Dispatcher.ResponseData, method: string, path: string): Promise<string> {
    const declared = Number(response.headers["content-length"] ?? Number.NaN);
    if (declared > MAX_RESPONSE_BYTES) {
      response.body.destroy();
      throw new ResponseValidationError(method, path, [], `response body larger than ${MAX_RESPONSE_BYTES} bytes`);
    }
    if (Number.isInteger(declared)) {
      // A declared length within the cap: undici's own reader is the fastest.
      try {
        return await response.body.text();
      } catch (error) {
        throw this.transportError(error, method, path);
      }
    }
    // No declared length (chunked): count while reading, stop at the cap.
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > MAX_RESPONSE_BYTES) {
          response.body.destroy();
          throw new ResponseValidationError(method, path, [], `response body larger than ${MAX_RESPONSE_BYTES} bytes`);
        }
        chunks.push(buffer);
      }
    } catch (error) {
      if (error instanceof ResponseValidationError) throw error;
      throw this.transportError(error, method, path);
    }
    return chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8");
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}
