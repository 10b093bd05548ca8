/**
 * The emulator's HTTP server on 127.0.0.1: body reading with a cap, the
 * request log (authorization redacted), rate limit, faults, authentication,
 * then the API or the control endpoints.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { handleApi } from "./api";
import { handleControl, type RequestRecord, type Stats } from "./control";
import { Faults } from "./faults";
import { errorReply, type Reply, type RequestContext } from "./http-types";
import { loadStore, saveStore } from "./persistence";
import { RateLimit } from "./rate-limit";
import { Store } from "./store";

export interface EmulatorOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  readyAfterMs?: number;
  secretSets?: Record<string, string[]>;
  stateFile?: string;
}

export interface RunningEmulator {
  /** http://HOST:PORT/v1 */
  url: string;
  /** http://HOST:PORT (control endpoints live under /_emulator/) */
  baseUrl: string;
  apiKey: string;
  port: number;
  close(): Promise<void>;
}

export const MAX_BODY_BYTES = 1024 * 1024;
const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

function keyMatches(header: string | undefined, apiKey: string): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1] as string);
  const expected = Buffer.from(apiKey);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function redacted(headers: IncomingMessage["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k] = k === "authorization" ? "Bearer [REDACTED]" : String(v);
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooBig ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, r: Reply): void {
  const text = JSON.stringify(r.body);
  res.writeHead(r.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...r.headers });
  res.end(text);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const apiKey = options.apiKey ?? `emu-${randomBytes(12).toString("hex")}`;
  const store = new Store(options.readyAfterMs ?? 1500);
  const startSets = Object.entries(options.secretSets ?? {});
  for (const [name, fields] of startSets) store.secretSets.set(name, fields);
  if (options.stateFile) loadStore(store, options.stateFile);
  const persist = options.stateFile ? () => saveStore(store, options.stateFile as string) : () => undefined;
  const faults = new Faults();
  const rateLimit = new RateLimit();
  const requests: RequestRecord[] = [];
  const counters = { connections: 0, apiConnections: 0, requests: 0, byRoute: {} as Record<string, number> };
  let apiSockets = new WeakSet<Socket>();
  const sockets = new Set<Socket>();
  const stats = (): Stats => ({
    connections: counters.connections,
    apiConnections: counters.apiConnections,
    requests: counters.requests,
    byRoute: { ...counters.byRoute },
    rateLimited: rateLimit.limited,
    faultsFired: faults.fired,
  });
  const reset = (all: boolean) => {
    store.agents.clear();
    store.logs.clear();
    if (all) store.secretSets.clear();
    faults.clear();
    rateLimit.set(undefined);
    rateLimit.limited = 0;
    faults.fired = 0;
    counters.connections = 0;
    counters.apiConnections = 0;
    apiSockets = new WeakSet<Socket>();
    counters.requests = 0;
    counters.byRoute = {};
    requests.length = 0;
    persist();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://emulator");
    const method = (req.method ?? "GET").toUpperCase();
    const body = await readBody(req);
    const ctx: RequestContext = { method, path: url.pathname, query: url.searchParams, headers: req.headers, body: body ?? "" };

    if (url.pathname.startsWith("/_emulator/")) {
      if (!LOOPBACK.has(req.socket.remoteAddress ?? "")) return send(res, errorReply(403, "FORBIDDEN", "control endpoints are loopback only"));
      if (body === undefined) return send(res, errorReply(400, "GENERIC_BAD_REQUEST", "body too large"));
      return send(res, handleControl(ctx, { store, faults, rateLimit, stats, requests, persist, reset }));
    }

    const finish = (r: Reply) => {
      requests.push({ method, path: url.pathname, status: r.status, headers: redacted(req.headers) });
      if (requests.length > 1000) requests.shift();
      send(res, r);
    };
    if (url.pathname !== "/v1" && !url.pathname.startsWith("/v1/")) return finish(errorReply(404, "NOT_FOUND", "route not found"));
    counters.requests++;
    if (!apiSockets.has(req.socket)) {
      apiSockets.add(req.socket);
      counters.apiConnections++;
    }
    const route = `${method} ${url.pathname}`;
    counters.byRoute[route] = (counters.byRoute[route] ?? 0) + 1;

    const wait = rateLimit.check();
    if (wait !== undefined) {
      return finish(errorReply(429, "RATE_LIMITED", "rate limit exceeded", { "retry-after": String(wait) }));
    }
    const fault = faults.take(method, url.pathname);
    if (fault?.kind === "drop-before") return void req.socket.destroy();
    if (fault?.kind === "status") {
      const status = fault.status ?? 500;
      const headers: Record<string, string> | undefined = status === 429 ? { "retry-after": "1" } : undefined;
      return finish(errorReply(status, fault.code ?? (status === 429 ? "RATE_LIMITED" : "INTERNAL_SERVER_ERROR"), "injected fault", headers));
    }
    if (fault?.kind === "delay") await new Promise((r) => setTimeout(r, fault.delayMs ?? 0));

    if (!keyMatches(req.headers.authorization, apiKey)) {
      return finish(errorReply(401, "UNAUTHORIZED", "missing or invalid API key"));
    }
    if (body === undefined) return finish(errorReply(400, "GENERIC_BAD_REQUEST", `body larger than ${MAX_BODY_BYTES} bytes`));
    const result = handleApi(ctx, { store, persist });
    if (fault?.kind === "drop-after") return void req.socket.destroy();
    finish(result);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, errorReply(500, "INTERNAL_SERVER_ERROR", `emulator error: ${(error as Error).message}`));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.on("connection", (socket: Socket) => {
    counters.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const baseUrl = `http://${shownHost}:${port}`;
  return {
    url: `${baseUrl}/v1`,
    baseUrl,
    apiKey,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
      }),
  };
}
