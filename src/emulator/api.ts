/** The service's endpoints under /v1, answered as the reading's switches say. */
import { renderAgent } from "./agent-json";
import type { GetOutages } from "./get-outage";
import { errorReply, parseJsonBody, reply, segmentsOf } from "./http-types";
import type { Reply, RequestContext } from "./http-types";
import { parseLogsQuery } from "./log-filter";
import type { ReadingSwitches } from "./reading";
import { mergedSpec, specOf } from "./store";
import type { Store } from "./store";
import { isoNs } from "./time";
import { checkCreateBody, checkUpdateBody, describeViolations, secretSetNameViolations } from "./validation";
import type { Checked } from "./validation";
import type { UpdateBody, Violation } from "./wire";

export interface ApiDeps {
  store: Store;
  switches: ReadingSwitches;
  outages: GetOutages;
  /** Persists the store (state file) before a mutation is acknowledged. */
  persist: () => void;
}

const notFound = (what: string) => errorReply(404, "NOT_FOUND", `${what} not found`);

function badRequest(violations: readonly Violation[]): Reply {
  return errorReply(400, "GENERIC_BAD_REQUEST", `invalid request: ${describeViolations(violations)}`);
}

function missingSets(store: Store, body: UpdateBody): Violation[] {
  const violations: Violation[] = [];
  for (const field of ["secretSet", "imagePullSecretSet"] as const) {
    const name = body[field];
    if (typeof name === "string" && !store.secretSets.has(name)) {
      violations.push({ property: field, reason: `secret set "${name}" does not exist` });
    }
  }
  return violations;
}

function readBody<T extends UpdateBody>(ctx: RequestContext, check: (input: unknown) => Checked<T>): { ok: true; value: T } | { ok: false; reply: Reply } {
  const parsed = parseJsonBody(ctx);
  if (!parsed.ok) return parsed;
  const checked = check(parsed.value);
  return checked.ok ? { ok: true, value: checked.body } : { ok: false, reply: badRequest(checked.violations) };
}

export function handleApi(ctx: RequestContext, deps: ApiDeps): Reply {
  const { store, switches } = deps;
  const segments = segmentsOf(ctx.path);
  if (!segments) return errorReply(400, "GENERIC_BAD_REQUEST", "malformed percent-encoding in the path");
  const [, resource, name, sub, ...rest] = segments; // segments[0] is "v1"
  if (rest.length > 0) return notFound("route");
  const m = ctx.method;

  if (resource === "agents" && name === undefined && m === "POST") {
    const body = readBody(ctx, checkCreateBody);
    if (!body.ok) return body.reply;
    const create = body.value;
    const missing = missingSets(store, create);
    if (missing.length > 0) return badRequest(missing);
    if (store.agents.has(create.serviceName)) {
      return errorReply(409, "CONFLICT", `an agent named "${create.serviceName}" already exists`);
    }
    const agent = store.create(create);
    deps.persist();
    deps.outages.begin(agent.name);
    return reply(switches.createStatus, renderAgent(store, agent, switches, "create"));
  }

  if (resource === "agents" && name !== undefined && sub === undefined) {
    const agent = store.agents.get(name);
    if (m === "GET") {
      if (!agent) return notFound(`agent "${name}"`);
      if (deps.outages.take(name)) return errorReply(503, "SERVICE_UNAVAILABLE", "the agent is being provisioned; try again");
      return reply(200, renderAgent(store, agent, switches, "get"));
    }
    if (m === "DELETE") {
      if (!agent) return notFound(`agent "${name}"`);
      store.delete(name);
      deps.outages.forget(name);
      deps.persist();
      return switches.deleteStatus === 204 ? reply(204, undefined) : reply(200, { status: "OK" });
    }
    if (m === "POST") {
      if (!agent) return notFound(`agent "${name}"`);
      const body = readBody(ctx, (input) => checkUpdateBody(input, !switches.updateMerges));
      if (!body.ok) return body.reply;
      const update = body.value;
      const missing = missingSets(store, update);
      if (missing.length > 0) return badRequest(missing);
      // A merging update keeps the values of the latest deployment, the one the agent was last asked for.
      const spec = switches.updateMerges ? mergedSpec(store.desired(agent).spec, update) : specOf(update as UpdateBody & { image: string });
      store.update(agent, spec);
      deps.persist();
      return reply(200, renderAgent(store, agent, switches, "update"));
    }
  }

  if (resource === "agents" && name !== undefined && sub === "logs" && m === "GET") {
    const agent = store.agents.get(name);
    if (!agent) return notFound(`agent "${name}"`);
    const { failures, query } = parseLogsQuery(ctx.query);
    if (failures.length > 0) return badRequest(failures);
    store.observe(agent);
    const result = store.logs.query(name, query);
    return reply(200, { total: result.total, logs: result.logs.map((e) => ({ log: e.log, timestamp: isoNs(e.ns) })) });
  }

  if (resource === "secrets" && name !== undefined && sub === undefined && m === "GET") {
    const problems = secretSetNameViolations(name, "setName");
    if (problems.length > 0) return badRequest(problems);
    const fields = store.secretSets.get(name);
    if (!fields) return notFound(`secret set "${name}"`);
    return reply(200, { secrets: fields.map((fieldName) => ({ fieldName })) });
  }

  return notFound("route");
}
