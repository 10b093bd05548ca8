/** Control endpoints under /_emulator/ (loopback only, no key): seeding, bulk logs, faults, rate limit, stats, reset. */
import { faultProblem, type FaultSpec, type Faults } from "./faults";
import { errorReply, parseJsonBody, reply, segmentsOf, type Reply, type RequestContext } from "./http-types";
import type { RateLimit } from "./rate-limit";
import type { Store } from "./store";
import { advancePast, nowNs } from "./time";

export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
}

export interface Stats {
  /** TCP connections accepted (control calls included). */
  connections: number;
  /** Distinct TCP connections that carried /v1 requests. */
  apiConnections: number;
  requests: number;
  byRoute: Record<string, number>;
  rateLimited: number;
  faultsFired: number;
}

export interface ControlDeps {
  store: Store;
  faults: Faults;
  rateLimit: RateLimit;
  stats: () => Stats;
  requests: RequestRecord[];
  persist: () => void;
  reset: (all: boolean) => void;
}

export function handleControl(ctx: RequestContext, deps: ControlDeps): Reply {
  const segments = segmentsOf(ctx.path) ?? [];
  const route = `${ctx.method} /${segments.slice(1).join("/")}`;
  const body = (): Record<string, unknown> | Reply => {
    if (ctx.body === "") return {};
    const parsed = parseJsonBody(ctx);
    return parsed.ok ? ((parsed.value ?? {}) as Record<string, unknown>) : parsed.reply;
  };
  const isReply = (v: unknown): v is Reply => typeof v === "object" && v !== null && "status" in v && "body" in v;

  if (route === "POST /secret-sets") {
    const b = body();
    if (isReply(b)) return b;
    if (typeof b["name"] !== "string" || !Array.isArray(b["fieldNames"])) {
      return errorReply(400, "GENERIC_BAD_REQUEST", "expected { name, fieldNames: string[] }");
    }
    deps.store.secretSets.set(b["name"], (b["fieldNames"] as unknown[]).map(String));
    deps.persist();
    return reply(200, { status: "OK" });
  }
  if (ctx.method === "POST" && segments[1] === "agents" && segments[3] === "logs" && segments[2]) {
    const agent = deps.store.agents.get(segments[2]);
    if (!agent) return errorReply(404, "NOT_FOUND", `agent "${segments[2]}" not found`);
    const b = body();
    if (isReply(b)) return b;
    const count = Number(b["count"] ?? 0);
    if (!Number.isInteger(count) || count < 0 || count > 1_000_000) {
      return errorReply(400, "GENERIC_BAD_REQUEST", "count must be an integer from 0 to 1000000");
    }
    const deploymentId = typeof b["deploymentId"] === "string" ? b["deploymentId"] : agent.activeDeploymentId;
    const prefix = typeof b["prefix"] === "string" ? b["prefix"] : "session event";
    const start = nowNs();
    for (let i = 0; i < count; i++) {
      deps.store.logs.add(agent.name, { deploymentId, ns: start + BigInt(i) * 1_000n, log: `${prefix} ${i}` });
    }
    advancePast(start + BigInt(count) * 1_000n); // later entries stay after these
    deps.persist();
    return reply(200, { appended: count });
  }
  if (route === "GET /agents") {
    const agents = [...deps.store.agents.values()].map((a) => ({
      name: a.name,
      activeDeploymentId: a.activeDeploymentId,
      deployments: a.deployments.map((d) => ({ id: d.id, image: d.spec.image, readyAt: d.readyAt, createdAt: d.createdMs })),
    }));
    return reply(200, { agents });
  }
  if (route === "POST /faults") {
    const b = body();
    if (isReply(b)) return b;
    const problem = faultProblem(b as Partial<FaultSpec>);
    if (problem) return errorReply(400, "GENERIC_BAD_REQUEST", problem);
    deps.faults.add(b as unknown as FaultSpec);
    return reply(200, { status: "OK" });
  }
  if (route === "DELETE /faults") {
    deps.faults.clear();
    return reply(200, { status: "OK" });
  }
  if (route === "POST /rate-limit") {
    const b = body();
    if (isReply(b)) return b;
    if (b["disabled"] === true) {
      deps.rateLimit.set(undefined);
      return reply(200, { status: "OK" });
    }
    const spec = {
      requestsPerWindow: Number(b["requestsPerWindow"]),
      windowMs: Number(b["windowMs"] ?? 1000),
      retryAfterSeconds: Number(b["retryAfterSeconds"] ?? 1),
    };
    if (!(spec.requestsPerWindow >= 0 && spec.windowMs > 0 && spec.retryAfterSeconds >= 0)) {
      return errorReply(400, "GENERIC_BAD_REQUEST", "expected { requestsPerWindow, windowMs, retryAfterSeconds } or { disabled: true }");
    }
    deps.rateLimit.set(spec);
    return reply(200, { status: "OK" });
  }
  if (route === "GET /stats") return reply(200, deps.stats());
  if (route === "GET /requests") return reply(200, { requests: deps.requests });
  if (route === "POST /reset") {
    const b = body();
    if (isReply(b)) return b;
    deps.reset(b["all"] === true);
    return reply(200, { status: "OK" });
  }
  return errorReply(404, "NOT_FOUND", `no control route ${route}`);
}
