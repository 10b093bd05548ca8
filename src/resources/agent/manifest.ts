/**
 * What is sent and what the service reports of it, built from the field
 * table: the create and update bodies (declared values as given, defaults
 * for fields left out that have one, the agent's live value for fields
 * whose absence means "keep", nothing for fields whose absence means
 * "clear"), the one mapping between a body and the manifest the service
 * reports for it, both ways.
 */
import type { CreateAgentBody, UpdateAgentBody } from "../../client/bodies";
import type { FieldSpec } from "../../core/field-table";
import { sameJson } from "../../client/same-json";
import { manifestValueAt } from "../../client/agent-body";
import { AGENT_FIELDS, SERVICE_FIELDS } from "./fields";
import type { AgentInputs } from "./inputs-outputs";
import type { ServiceAgent } from "./service-agent";

export type RequestBody = Record<string, unknown>;

/** A request value with the field's default applied when it is left out. */
function withDefault(field: FieldSpec, body: RequestBody): unknown {
  return body[field.name] ?? field.default;
}

/** The request values a manifest reports (an agent's, or as the outputs record it), by field name; fields it does not report are absent. */
export function reportedValues(manifest: { spec?: unknown } | null | undefined): Record<string, unknown> {
  const spec = manifest?.spec;
  const values: Record<string, unknown> = {};
  for (const field of AGENT_FIELDS) {
    if (!field.manifest) continue;
    const found = manifestValueAt(spec, field.manifest.path);
    if (found.found) values[field.name] = field.manifest.fromManifest(found.value);
  }
  return values;
}

/**
 * Whether a live agent has exactly the spec a create body asks for. A field
 * the service does not report matches only when the body leaves it out, so an
 * agent is never taken for ours on a guess.
 */
export function agentMatchesBody(agent: ServiceAgent, sent: object): boolean {
  const body: RequestBody = { ...sent };
  const spec = agent.deployment?.manifest?.spec;
  if (spec === undefined) return false;
  for (const field of SERVICE_FIELDS) {
    if (!field.manifest) continue;
    const declared = withDefault(field, body);
    if (field.undeclared === "keep") {
      if (declared === undefined) continue;
      const live = field.manifest.fromManifest(agent[field.name] ?? manifestValueAt(spec, field.manifest.path).value);
      if (!sameJson(live, declared)) return false;
      continue;
    }
    const found = manifestValueAt(spec, field.manifest.path);
    const expected = field.manifest.toManifest(declared);
    if (!found.found) {
      if (declared !== undefined) return false;
      continue;
    }
    if (!sameJson(found.value, expected)) return false;
  }
  return true;
}

function bodyOf(inputs: Record<string, unknown>, live: ServiceAgent | undefined, withName: boolean): RequestBody {
  const body: RequestBody = {};
  for (const field of SERVICE_FIELDS) {
    if (field.name === "serviceName" && !withName) continue;
    let value = inputs[field.name];
    if (value === undefined || value === null) {
      if (field.undeclared === "default") value = field.default;
      // The answer reports a "keep" field under the same name, in manifest form.
      else if (field.undeclared === "keep" && live !== undefined) value = field.manifest?.fromManifest(live[field.name]);
    }
    if (value !== undefined && value !== null) body[field.name] = value;
  }
  return body;
}

/** POST /agents: the agent's whole spec. */
export function createBody(inputs: AgentInputs): CreateAgentBody {
  return { ...bodyOf({ ...inputs }, undefined, true), serviceName: inputs.serviceName, image: inputs.image };
}

/** POST /agents/{name}: the whole spec without serviceName; `live` supplies the values to keep. */
export function updateBody(inputs: AgentInputs, live: ServiceAgent | undefined): UpdateAgentBody {
  return { ...bodyOf({ ...inputs }, live, false), image: inputs.image };
}
