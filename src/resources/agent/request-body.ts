/**
 * The create and update bodies, built from the field table: declared values
 * as given, defaults for fields left out that have one, the agent's live value
 * for fields whose absence means "keep", and nothing for fields whose absence
 * means "clear".
 */
import type { CreateAgentBody, UpdateAgentBody } from "../../client/bodies";
import { SERVICE_FIELDS } from "./fields";
import type { AgentInputs } from "./inputs-outputs";
import type { RequestBody } from "./manifest";
import type { ServiceAgent } from "./service-agent";

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
