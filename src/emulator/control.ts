/**
 * Control endpoints under /_emulator/ (loopback only, no key), JSON in and out:
 *
 *   POST   /_emulator/secret-sets         { name, fieldNames: string[] }
 *   POST   /_emulator/agents/{name}/logs  { count, deploymentId?, prefix?, startMs?, intervalMs? } → { appended }
 *   GET    /_emulator/agents/{name}/logs  → { entries: [{ deploymentId, timestamp, log }] } (every entry, oldest first)
 *   POST   /_emulator/agents/{name}/sessions { count, endAfterMs? } → { activeSessionCount, endsAt } (endsAt: epoch ms or null)
 *   GET    /_emulator/agents              → { agents: [{ name, activeDeploymentId, desiredDeploymentId, deployments: [{ id, image, readyAt, createdAt }] }] }
 *   POST   /_emulator/faults              { method, path, kind, status?, code?, delayMs?, count? }
 *   DELETE /_emulator/faults
 *   POST   /_emulator/rate-limit          { requestsPerWindow, windowMs, retryAfterSeconds } | { disabled: true }
 *   GET    /_emulator/stats               → Stats
 *   GET    /_emulator/requests            → { requests: RequestRecord[] }
 *   POST   /_emulator/reset               { all?: boolean }
 */
import type { EmulatorContext } from "./context";
import { faultProblem, isFaultSpec } from "./faults";
import type { FaultSpec } from "./faults";
import { errorReply, parseJsonBody, reply, segmentsOf } from "./http-types";
import type { Reply, RequestContext } from "./http-types";
import type { StoredEntry } from "./log-store";
import { sessionsOf } from "./sessions";
import { advancePast, isoNs, nowNs } from "./time";

export type { Stats } from "./counters";
export type { RequestRecord } from "./request-log";

export const MAX_BULK_LOGS = 1_000_000;
const OK = () => reply(200, { status: "OK" });
const bad = (message: string) => errorReply(400, "GENERIC_BAD_REQUEST", message);

type Body = Record<string, unknown>;

function jsonObject(ctx: RequestContext): { ok: true; value: Body } | { ok: false; reply: Reply } {
  if (ctx.body === "") return { ok: true, value: {} };
  const parsed = parseJsonBody(ctx);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, reply: bad("the body must be a JSON object") };
  return { ok: true, value: value as Body };
}

function seedSecretSet(ctx: EmulatorContext, b: Body): Reply {
  const name = b["name"];
  const fieldNames = b["fieldNames"];
  if (typeof name !== "string" || name === "" || !Array.isArray(fieldNames) || !fieldNames.every((f) => typeof f === "string")) {
    return bad("expected { name: string, fieldNames: string[] }");
  }
  ctx.store.secretSets.set(name, [...(fieldNames as string[])]);
  ctx.persist();
  return OK();
}

function appendLogs(ctx: EmulatorContext, agentName: string, b: Body): Reply {
  const agent = ctx.store.agents.get(agentName);
  if (!agent) return errorReply(404, "NOT_FOUND", `agent "${agentName}" not found`);
  const count = b["count"] ?? 0;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0 || count > MAX_BULK_LOGS) {
    return bad(`count must be an integer from 0 to ${MAX_BULK_LOGS}`);
  }
  ctx.store.observe(agent); // the default is the deployment that serves now
  const deploymentId = b["deploymentId"] ?? agent.activeDeploymentId;
  if (typeof deploymentId !== "string" || !agent.deployments.some((d) => d.id === deploymentId)) {
    return bad(`deploymentId must be a deployment of agent "${agent.name}"`);
  }
  const prefix = b["prefix"] ?? "session event";
  if (typeof prefix !== "string") return bad("prefix must be a string");
  const startMs = b["startMs"];
  const intervalMs = b["intervalMs"] ?? 0.001;
  if (startMs !== undefined && (typeof startMs !== "number" || !Number.isFinite(startMs) || startMs < 0)) {
    return bad("startMs must be epoch milliseconds");
  }
  if (typeof intervalMs !== "number" || !Number.isFinite(intervalMs) || intervalMs <= 0) {
    return bad("intervalMs must be a number > 0");
  }
  const start = startMs === undefined ? nowNs() : BigInt(Math.round(startMs * 1e6));
  const step = BigInt(Math.max(1, Math.round(intervalMs * 1e6)));
  const batch: StoredEntry[] = new Array<StoredEntry>(count);
  for (let i = 0; i < count; i++) batch[i] = { deploymentId, ns: start + BigInt(i) * step, log: `${prefix} ${i}` };
  ctx.store.logs.addBatch(agent.name, batch);
  // Lines written from now on (new deployments) come after lines appended at "now".
  if (startMs === undefined) advancePast(start + BigInt(count) * step);
  ctx.persist();
  return reply(200, { appended: count });
}

function dumpLogs(ctx: EmulatorContext, agentName: string): Reply {
  const agent = ctx.store.agents.get(agentName);
  if (!agent) return errorReply(404, "NOT_FOUND", `agent "${agentName}" not found`);
  ctx.store.observe(agent);
  const entries = ctx.store.logs.entries(agent.name).map((e) => ({ deploymentId: e.deploymentId, timestamp: isoNs(e.ns), log: e.log }));
  return reply(200, { entries });
}

/** The agent's `activeSessionCount` becomes `count`, and 0 again `endAfterMs` later when given. */
function setSessions(ctx: EmulatorContext, agentName: string, b: Body): Reply {
  const agent = ctx.store.agents.get(agentName);
  if (!agent) return errorReply(404, "NOT_FOUND", `agent "${agentName}" not found`);
  const parsed = sessionsOf(b, Date.now());
  if (!parsed.ok) return bad(parsed.violations.map((v) => `${v.property}: ${v.reason}`).join("; "));
  agent.sessions = parsed.value;
  ctx.persist();
  return reply(200, { activeSessionCount: parsed.value.count, endsAt: parsed.value.endsAt });
}

function listAgents(ctx: EmulatorContext): Reply {
  const agents = [...ctx.store.agents.values()].map((a) => {
    ctx.store.observe(a); // a desired deployment whose time has come is the active one
    return {
      name: a.name,
      activeDeploymentId: a.activeDeploymentId,
      desiredDeploymentId: ctx.store.desired(a).id,
      deployments: a.deployments.map((d) => ({ id: d.id, image: d.spec.image, readyAt: d.readyAt, createdAt: d.createdMs })),
    };
  });
  return reply(200, { agents });
}

function setRateLimit(ctx: EmulatorContext, b: Body): Reply {
  if (b["disabled"] === true) {
    ctx.rateLimit.set(undefined);
    return OK();
  }
  const spec = {
    requestsPerWindow: b["requestsPerWindow"],
    windowMs: b["windowMs"] ?? 1000,
    retryAfterSeconds: b["retryAfterSeconds"] ?? 1,
  };
  const valid =
    typeof spec.requestsPerWindow === "number" && Number.isInteger(spec.requestsPerWindow) && spec.requestsPerWindow >= 0 &&
    typeof spec.windowMs === "number" && spec.windowMs > 0 &&
    typeof spec.retryAfterSeconds === "number" && Number.isInteger(spec.retryAfterSeconds) && spec.retryAfterSeconds >= 0;
  if (!valid) return bad("expected { requestsPerWindow, windowMs, retryAfterSeconds } or { disabled: true }");
  ctx.rateLimit.set(spec as { requestsPerWindow: number; windowMs: number; retryAfterSeconds: number });
  return OK();
}

export function handleControl(req: RequestContext, ctx: EmulatorContext): Reply {
  const segments = segmentsOf(req.path);
  if (!segments) return bad("malformed percent-encoding in the path");
  const rest = segments.slice(1); // segments[0] is "_emulator"
  const route = `${req.method} /${rest.join("/")}`;
  const withBody = (handler: (b: Body) => Reply): Reply => {
    const body = jsonObject(req);
    return body.ok ? handler(body.value) : body.reply;
  };

  if (route === "POST /secret-sets") return withBody((b) => seedSecretSet(ctx, b));
  if (rest.length === 3 && rest[0] === "agents" && rest[2] === "logs") {
    if (req.method === "POST") return withBody((b) => appendLogs(ctx, rest[1] as string, b));
    if (req.method === "GET") return dumpLogs(ctx, rest[1] as string);
  }
  if (rest.length === 3 && rest[0] === "agents" && rest[2] === "sessions" && req.method === "POST") {
    return withBody((b) => setSessions(ctx, rest[1] as string, b));
  }
  if (route === "GET /agents") return listAgents(ctx);
  if (route === "POST /faults") {
    return withBody((b) => {
      const spec: Partial<FaultSpec> = b;
      if (!isFaultSpec(spec)) return bad(faultProblem(spec) ?? "not a fault");
      ctx.faults.add(spec);
      return OK();
    });
  }
  if (route === "DELETE /faults") {
    ctx.faults.clear();
    return OK();
  }
  if (route === "POST /rate-limit") return withBody((b) => setRateLimit(ctx, b));
  if (route === "GET /stats") return reply(200, ctx.stats());
  if (route === "GET /requests") return reply(200, { requests: ctx.requestLog.list() });
  if (route === "POST /reset") {
    return withBody((b) => {
      ctx.reset(b["all"] === true);
      return OK();
    });
  }
  return errorReply(404, "NOT_FOUND", `no control route ${route}`);
}
