/** The service's endpoints under /v1 (spec section 4, design section 5). */
import { SERVICE_FIELDS, describeFailures, secretSetNameProblem, validateFields, type AgentField, type RuleFailure } from "../model";
import type { CreateAgentBody, UpdateAgentBody } from "./store";

const CREATE_FIELDS = SERVICE_FIELDS;
const UPDATE_FIELDS = SERVICE_FIELDS.filter((f) => f.name !== "serviceName");
import { errorReply, parseJsonBody, reply, segmentsOf, type Reply, type RequestContext } from "./http-types";
import { parseLogsQuery } from "./logs-query";
import { isoNs } from "./time";
import type { Store } from "./store";

export interface ApiDeps {
  store: Store;
  /** Persists the store (state file) before a mutation is acknowledged. */
  persist: () => void;
}

const notFound = (what: string) => errorReply(404, "NOT_FOUND", `${what} not found`);

function badRequest(failures: RuleFailure[]): Reply {
  return errorReply(400, "GENERIC_BAD_REQUEST", `invalid request: ${describeFailures(failures)}`);
}

function missingSets(store: Store, body: UpdateAgentBody): RuleFailure[] {
  const failures: RuleFailure[] = [];
  for (const field of ["secretSet", "imagePullSecretSet"] as const) {
    const name = body[field];
    if (name !== undefined && !store.secretSets.has(name)) {
      failures.push({ property: field, reason: `secret set "${name}" does not exist` });
    }
  }
  return failures;
}

function readBody(ctx: RequestContext, fields: readonly AgentField[], required: ("serviceName" | "image")[]) {
  const parsed = parseJsonBody(ctx);
  if (!parsed.ok) return parsed;
  const failures = validateFields(parsed.value, { required, fields });
  if (failures.length > 0) return { ok: false as const, reply: badRequest(failures) };
  return { ok: true as const, value: parsed.value };
}

export function handleApi(ctx: RequestContext, deps: ApiDeps): Reply {
  const { store } = deps;
  const segments = segmentsOf(ctx.path);
  if (!segments) return errorReply(400, "GENERIC_BAD_REQUEST", "malformed percent-encoding in the path");
  const [, resource, name, sub, ...rest] = segments; // segments[0] is "v1"
  if (rest.length > 0) return notFound("route");
  const m = ctx.method;

  if (resource === "agents" && name === undefined && m === "POST") {
    const body = readBody(ctx, CREATE_FIELDS, ["serviceName", "image"]);
    if (!body.ok) return body.reply;
    const create = body.value as CreateAgentBody;
    const missing = missingSets(store, create);
    if (missing.length > 0) return badRequest(missing);
    if (store.agents.has(create.serviceName)) {
      return errorReply(409, "CONFLICT", `an agent named "${create.serviceName}" already exists`);
    }
    const agent = store.create(create);
    deps.persist();
    return reply(200, store.toJson(agent));
  }

  if (resource === "agents" && name !== undefined && sub === undefined) {
    const agent = store.agents.get(name);
    if (m === "GET") return agent ? reply(200, store.toJson(agent)) : notFound(`agent "${name}"`);
    if (m === "DELETE") {
      if (!agent) return notFound(`agent "${name}"`);
      store.delete(name);
      deps.persist();
      return reply(200, { status: "OK" });
    }
    if (m === "POST") {
      if (!agent) return notFound(`agent "${name}"`);
      const body = readBody(ctx, UPDATE_FIELDS, ["image"]);
      if (!body.ok) return body.reply;
      const update = body.value as UpdateAgentBody;
      const missing = missingSets(store, update);
      if (missing.length > 0) return badRequest(missing);
      store.update(agent, update);
      deps.persist();
      return reply(200, store.toJson(agent));
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
    const problem = secretSetNameProblem(name);
    if (problem) return badRequest([{ property: "setName", reason: problem }]);
    const fields = store.secretSets.get(name);
    if (!fields) return notFound(`secret set "${name}"`);
    return reply(200, { secrets: fields.map((fieldName) => ({ fieldName })) });
  }

  return notFound("route");
}
