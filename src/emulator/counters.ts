/** Connection and request counters behind GET /_emulator/stats. */
import type { Socket } from "node:net";

export interface Stats {
  /** TCP connections accepted since start or the last reset (control calls included). */
  connections: number;
  /** Distinct TCP connections that carried /v1 requests. */
  apiConnections: number;
  /** /v1 requests received. */
  requests: number;
  /** /v1 requests by "METHOD /path" (the raw path, e.g. "GET /v1/agents/bot"). */
  byRoute: Record<string, number>;
  /** /v1 requests answered 429 by the rate limit. */
  rateLimited: number;
  /** Injected faults that fired. */
  faultsFired: number;
}

export class Counters {
  connections = 0;
  apiConnections = 0;
  requests = 0;
  byRoute: Record<string, number> = {};
  private apiSockets = new WeakSet<Socket>();

  connectionAccepted(): void {
    this.connections++;
  }

  apiRequest(socket: Socket, method: string, path: string): void {
    this.requests++;
    if (!this.apiSockets.has(socket)) {
      this.apiSockets.add(socket);
      this.apiConnections++;
    }
    const route = `${method} ${path}`;
    this.byRoute[route] = (this.byRoute[route] ?? 0) + 1;
  }

  reset(): void {
    this.connections = 0;
    this.apiConnections = 0;
    this.requests = 0;
    this.byRoute = {};
    this.apiSockets = new WeakSet<Socket>();
  }
}
