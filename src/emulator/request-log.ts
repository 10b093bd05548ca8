/** The last 1000 /v1 requests, for tests: method, path, status, headers (the authorization header redacted) and when each arrived. */
import type { IncomingHttpHeaders } from "node:http";

export interface RequestRecord {
  method: string;
  /** The path without the query. */
  path: string;
  /** The status answered; 0 when the connection was dropped without an answer (an injected fault). */
  status: number;
  headers: Record<string, string>;
  /** Present (true) when an injected fault dropped the connection. */
  dropped?: boolean;
  /** When the emulator received the request (epoch ms, its clock), before it read the body or applied any fault or delay. */
  receivedAtMs: number;
}

export const REQUEST_LOG_SIZE = 1000;
export const REDACTED_AUTHORIZATION = "Bearer [REDACTED]";

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = name === "authorization" ? REDACTED_AUTHORIZATION : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export class RequestLog {
  private records: RequestRecord[] = [];

  add(record: RequestRecord): void {
    this.records.push(record);
    if (this.records.length > REQUEST_LOG_SIZE) this.records.splice(0, this.records.length - REQUEST_LOG_SIZE);
  }

  list(): RequestRecord[] {
    return [...this.records];
  }

  clear(): void {
    this.records = [];
  }
}
