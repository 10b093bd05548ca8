/**
 * The emulator's HTTP server (node:http, 127.0.0.1 by default). Per /v1
 * request: counters, rate limit, injected faults, authentication, body cap,
 * then the API; every answer goes to the request log (key redacted).
 * /_emulator/ requests go to the control endpoints (loopback only, no key).
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { handleApi } from "./api";
import { bearerKeyMatches } from "./auth";
import { MAX_BODY_BYTES, readBody } from "./body";
import { EmulatorContext } from "./context";
import { handleControl } from "./control";
import { defaultCode } from "./faults";
import { errorReply, splitTarget } from "./http-types";
import type { Reply, RequestContext } from "./http-types";
import { readingProblem, resolveReading } from "./reading";
import type { GetOutage, ReadingName, ReadingSwitches, ReadyFlagsApart } from "./reading";
import { redactHeaders } from "./request-log";
import { DEFAULT_ROLLOUT, isRollout, ROLLOUTS } from "./rollout-modes";
import type { Rollout } from "./rollout-modes";

export { MAX_BODY_BYTES } from "./body";

export interface EmulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** Default: a random "emu-<hex>" key. */
  apiKey?: string;
  /** How long after its creation a deployment becomes ready. Default 1500. */
  readyAfterMs?: number;
  /**
   * How an update's new deployment takes over: "rolling" (the default) keeps
   * the old one active and serving until the new one, the desired one
   * (`desiredDeploymentId`), is ready; "immediate" makes it active at once and
   * sends neither `desiredDeploymentId` nor `available`. Not part of `reading`.
   */
  rollout?: Rollout;
  /** Secret sets to start with: name → field names. */
  secretSets?: Record<string, string[]>;
  /** Keep the data in this JSON file across restarts. */
  stateFile?: string;
  /**
   * How to answer where the service's API leaves room: "emulator" (the
   * default) or "other", which turns every switch below on. A switch given
   * on its own overrides the reading's value.
   */
  reading?: ReadingName;
  /** 200 (default) or 201 on a successful create. */
  createStatus?: 200 | 201;
  /** 200 with `{ "status": "OK" }` (default), or 204 with no body, on a successful delete. */
  deleteStatus?: 200 | 204;
  /** The create answer carries `deployment: null`; later GETs show the deployment. */
  deploymentNullOnCreate?: boolean;
  /** Add fields the API never names to the agent, the deployment and the manifest. */
  extraFields?: boolean;
  /** Leave out fields the API lists but does not promise (updatedAt, activeSessionCount, deployment.serviceId/createdAt/updatedAt, metadata.namespace, spec.clusterLocal). */
  omitOptionalFields?: boolean;
  /** The two ready flags turn true at different polls; null: together. */
  readyFlagsApart?: ReadyFlagsApart | null;
  /** GETs of an agent answer 503 for N requests or N ms after its create; null: never. */
  getOutageAfterCreate?: GetOutage | null;
  /** An update keeps every field its body leaves out (null clears it) instead of replacing the spec. */
  updateMerges?: boolean;
}

const SWITCH_KEYS = [
  "createStatus",
  "deleteStatus",
  "deploymentNullOnCreate",
  "extraFields",
  "omitOptionalFields",
  "readyFlagsApart",
  "getOutageAfterCreate",
  "updateMerges",
] as const satisfies readonly (keyof ReadingSwitches)[];

/**
 * The rollout `options` asks for; throws on a value that is none. The other
 * reading, of a service whose updates switch at once, switches at
 * once unless a rollout is given.
 */
export function rolloutOf(options: EmulatorOptions): Rollout {
  const rollout: unknown = options.rollout ?? (options.reading === "other" ? "immediate" : DEFAULT_ROLLOUT);
  if (!isRollout(rollout)) throw new Error(`rollout must be ${ROLLOUTS.map((r) => `"${r}"`).join(" or ")}, got "${String(rollout)}"`);
  return rollout;
}

/** The switches `options` asks for; throws on a value that cannot be served. */
export function switchesOf(options: EmulatorOptions): ReadingSwitches {
  const reading = options.reading ?? "emulator";
  if (reading !== "emulator" && reading !== "other") throw new Error(`reading must be "emulator" or "other", got "${String(reading)}"`);
  const overrides: Partial<ReadingSwitches> = {};
  for (const key of SWITCH_KEYS) {
    if (options[key] !== undefined) Object.assign(overrides, { [key]: options[key] });
  }
  const switches = resolveReading(reading, overrides);
  const problem = readingProblem(switches);
  if (problem) throw new Error(problem);
  return switches;
}

export interface RunningEmulator {
  /** http://HOST:PORT/v1 */
  url: string;
  /** http://HOST:PORT (control endpoints live under /_emulator/) */
  baseUrl: string;
  apiKey: string;
  port: number;
  /** Stops listening and closes every connection, keep-alive ones included. */
  close(): Promise<void>;
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

function send(res: ServerResponse, r: Reply): void {
  if (res.destroyed || res.writableEnded) return;
  if (r.body === undefined) {
    res.writeHead(r.status, { ...r.headers });
    res.end();
    return;
  }
  const text = JSON.stringify(r.body);
  res.writeHead(r.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...r.headers });
  res.end(text);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const apiKey = options.apiKey ?? `emu-${randomBytes(12).toString("hex")}`;
  const contextOptions: ConstructorParameters<typeof EmulatorContext>[0] = {
    readyAfterMs: options.readyAfterMs ?? 1500,
    rollout: rolloutOf(options),
    secretSets: options.secretSets ?? {},
    switches: switchesOf(options),
  };
  if (options.stateFile !== undefined) contextOptions.stateFile = options.stateFile;
  const ctx = new EmulatorContext(contextOptions);

  const handleV1 = async (req: IncomingMessage, res: ServerResponse, request: RequestContext, body: string | undefined, receivedAtMs: number) => {
    const { method, path } = request;
    const headers = redactHeaders(req.headers);
    const answer = (r: Reply) => {
      ctx.requestLog.add({ method, path, status: r.status, headers, receivedAtMs });
      send(res, r);
    };
    const drop = () => {
      ctx.requestLog.add({ method, path, status: 0, headers, dropped: true, receivedAtMs });
      req.socket.destroy();
    };
    ctx.counters.apiRequest(req.socket, method, path);

    const wait = ctx.rateLimit.check();
    if (wait !== undefined) return answer(errorReply(429, "RATE_LIMITED", "rate limit exceeded", { "retry-after": String(wait) }));
    const fault = ctx.faults.take(method, path);
    if (fault?.kind === "drop-before") return drop();
    if (fault?.kind === "status") {
      const status = fault.status ?? 500;
      const extra: Record<string, string> | undefined = status === 429 ? { "retry-after": "1" } : undefined;
      return answer(errorReply(status, fault.code ?? defaultCode(status), `injected fault: ${status}`, extra));
    }
    if (fault?.kind === "delay") await sleep(fault.delayMs ?? 0);

    if (!bearerKeyMatches(req.headers.authorization, apiKey)) {
      return answer(errorReply(401, "UNAUTHORIZED", "missing or invalid API key: send Authorization: Bearer <API_KEY>"));
    }
    if (body === undefined) return answer(errorReply(400, "GENERIC_BAD_REQUEST", `the body is larger than ${MAX_BODY_BYTES} bytes`));
    const result = handleApi(request, { store: ctx.store, switches: ctx.switches, outages: ctx.outages, persist: () => ctx.persist() });
    if (fault?.kind === "drop-after") return drop();
    answer(result);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const receivedAtMs = Date.now();
    const { path, query } = splitTarget(req.url ?? "/");
    const method = (req.method ?? "GET").toUpperCase();
    const body = await readBody(req);
    const request: RequestContext = { method, path, query, headers: req.headers, body: body ?? "" };

    if (path.startsWith("/_emulator/")) {
      if (!isLoopback(req.socket.remoteAddress)) return send(res, errorReply(403, "FORBIDDEN", "control endpoints are loopback only"));
      if (body === undefined) return send(res, errorReply(400, "GENERIC_BAD_REQUEST", `the body is larger than ${MAX_BODY_BYTES} bytes`));
      return send(res, handleControl(request, ctx));
    }
    if (path === "/v1" || path.startsWith("/v1/")) return handleV1(req, res, request, body, receivedAtMs);
    return send(res, errorReply(404, "NOT_FOUND", "route not found: the API lives under /v1"));
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, errorReply(500, "INTERNAL_SERVER_ERROR", `emulator error: ${(error as Error).message}`));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.on("connection", (socket: Socket) => {
    ctx.counters.connectionAccepted();
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const baseUrl = `http://${shownHost}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${baseUrl}/v1`,
    baseUrl,
    apiKey,
    port,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
