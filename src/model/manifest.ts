/**
 * The one mapping between a request body and the manifest the service
 * reports for it, both ways, built from the field table.
 */
import { AGENT_FIELDS, SERVICE_FIELDS } from "./agent-fields";
import type { AgentField } from "./field";
import { sameJson } from "./equal";
import type { ManifestSpec, ServiceAgent } from "./service-agent";

export type RequestBody = Record<string, unknown>;

function at(spec: ManifestSpec | undefined, path: readonly string[]): { found: boolean; value: unknown } {
  let node: unknown = spec;
  for (const key of path) {
    if (typeof node !== "object" || node === null || !(key in node)) return { found: false, value: undefined };
    node = (node as Record<string, unknown>)[key];
  }
  return { found: true, value: node };
}

function put(spec: ManifestSpec, path: readonly string[], value: unknown): void {
  let node = spec;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as ManifestSpec;
  }
  node[path[path.length - 1] as string] = value;
}

/** A request value with the field's default applied when it is left out. */
function withDefault(field: AgentField, body: RequestBody): unknown {
  return body[field.name] ?? field.default;
}

/**
 * The manifest `spec` members that a body determines. A service fills in what
 * the body leaves out (the scaling, for one); those members are absent here.
 */
export function manifestSpecOf(body: RequestBody): ManifestSpec {
  const spec: ManifestSpec = {};
  for (const field of SERVICE_FIELDS) {
    if (!field.manifest) continue;
    const value = field.manifest.toManifest(withDefault(field, body));
    if (value !== undefined) put(spec, field.manifest.path, value);
  }
  return spec;
}

/** The request values the agent's manifest reports, by field name; fields it does not report are absent. */
export function reportedValues(agent: ServiceAgent): Record<string, unknown> {
  const spec = agent.deployment?.manifest?.spec;
  const values: Record<string, unknown> = {};
  for (const field of AGENT_FIELDS as readonly AgentField[]) {
    if (!field.manifest) continue;
    const found = at(spec, field.manifest.path);
    if (found.found) values[field.name] = field.manifest.fromManifest(found.value);
  }
  return values;
}

/**
 * Whether a live agent has exactly the spec a create body asks for. A field
 * the service does not report matches only when the body leaves it out, so an
 * agent is never taken for ours on a guess.
 */
export function agentMatchesBody(agent: ServiceAgent, body: RequestBody): boolean {
  const spec = agent.deployment?.manifest?.spec;
  if (spec === undefined) return false;
  for (const field of SERVICE_FIELDS) {
    if (!field.manifest) continue;
    const declared = withDefault(field, body);
    if (field.undeclared === "keep") {
      if (declared === undefined) continue;
      const live = field.manifest.fromManifest(agent[field.name] ?? at(spec, field.manifest.path).value);
      if (!sameJson(live, declared)) return false;
      continue;
    }
    const found = at(spec, field.manifest.path);
    const expected = field.manifest.toManifest(declared);
    if (!found.found) {
      if (declared !== undefined) return false;
      continue;
    }
    if (!sameJson(found.value, expected)) return false;
  }
  return true;
}
