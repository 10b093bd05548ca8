/**
 * The resource's outputs, from the service's answer, and the inputs rebuilt
 * from it on refresh, both derived from the field table.
 */
import type { FieldSpec } from "../../core/field-table";
import { asSecret } from "../../core/engine-sentinels";
import type { Props } from "../../core/resource-entry";
import { AGENT_FIELDS } from "./fields";
import type { AgentInputs, AgentOutputs } from "./inputs-outputs";
import { reportedValues } from "./manifest";
import type { ServiceAgent } from "./service-agent";

const FIELDS: readonly FieldSpec[] = AGENT_FIELDS;

/** The inputs as a record of field values. */
export function inputValues(inputs: AgentInputs): Props {
  return { ...inputs };
}

/** Outputs derived from the inputs only: for a create whose answer never came. */
export function outputsWithoutAnswer(inputs: AgentInputs): Props {
  const outputs: Props = { ...inputs, name: inputs.serviceName, deployment: null, manifest: null };
  for (const field of FIELDS) if (field.answer) delete outputs[field.name];
  return outputs;
}

/**
 * Outputs: each input as the service reports it where it reports it (so drift
 * shows on the next preview), else as declared; then the service's answer.
 * The manifest and the deployment are the service's JSON, unknown fields
 * included; the deployment's manifest is the separate `manifest` output.
 * Outputs that reflect a secret input are returned as secrets.
 */
export function toOutputs(inputs: AgentInputs, agent: ServiceAgent, secretInputs: readonly string[]): Props {
  const reported = reportedValues(agent);
  const declared = inputValues(inputs);
  const outputs: Props = {};
  for (const field of FIELDS) {
    const value = field.answer
      ? field.answer.output(agent)
      : field.sentTo === "service" && reported[field.name] !== undefined
        ? reported[field.name]
        : declared[field.name];
    if (value !== undefined) outputs[field.name] = field.answer && secretInputs.includes(field.name) ? asSecret(value) : value;
  }
  outputs["serviceName"] = agent.name;
  const { deployment } = agent;
  const answer: Partial<AgentOutputs> = {
    name: agent.name,
    ready: agent.ready,
    activeDeploymentId: agent.activeDeploymentId,
    activeDeploymentReady: agent.activeDeploymentReady,
    deployment: deployment ? withoutManifest(deployment) : null,
    manifest: deployment?.manifest ?? null,
  };
  if (agent.createdAt !== undefined) answer.createdAt = agent.createdAt;
  if (agent.updatedAt !== undefined) answer.updatedAt = agent.updatedAt;
  if (agent.activeSessionCount !== undefined) answer.activeSessionCount = agent.activeSessionCount;
  if (agent.available !== undefined) answer.available = agent.available;
  if (agent.desiredDeploymentId !== undefined) answer.desiredDeploymentId = agent.desiredDeploymentId;
  Object.assign(outputs, answer);
  const secretSent = secretInputs.some((name) => FIELDS.some((f) => f.name === name && f.sentTo === "service"));
  if (secretSent) {
    for (const key of ["manifest", "deployment"]) if (outputs[key] !== null) outputs[key] = asSecret(outputs[key]);
  }
  return outputs;
}

function withoutManifest(deployment: NonNullable<ServiceAgent["deployment"]>): Props {
  const rest: Props = { ...deployment };
  delete rest["manifest"];
  return rest;
}

/** Coerces resolved resource properties (checked inputs or old outputs) into AgentInputs. */
export function asInputs(props: Props): AgentInputs {
  const inputs: Props = {};
  for (const field of FIELDS) {
    let value = props[field.name];
    if (field.properties && typeof value === "object" && value !== null) {
      const record = value as Props;
      const members = field.properties.map((p) => ({ p, v: record[p.name] ?? (p.answerName === undefined ? undefined : record[p.answerName]) }));
      const typed = members.every(({ p, v }) => typeof v === (p.type === "string" ? "string" : "number"));
      value = typed ? Object.fromEntries(members.map(({ p, v }) => [p.name, v])) : undefined;
    }
    if (value === undefined || value === null) value = field.default;
    if (value !== undefined) inputs[field.name] = value;
  }
  if (!isAgentInputs(inputs)) throw new Error(`agent inputs lack serviceName or image: ${Object.keys(inputs).join(", ")}`);
  return inputs;
}

/** Whether checked properties have what AgentInputs requires (check made sure of every rule). */
function isAgentInputs(props: Props): props is Props & AgentInputs {
  return typeof props["serviceName"] === "string" && typeof props["image"] === "string" && props["nodeType"] === "arm";
}

/**
 * Inputs rebuilt from the live agent (refresh, Agent.get, import): what the
 * manifest reports, the live scaling, and, for what the service does not
 * report, the previous inputs. Provider settings come from the previous state.
 */
export function inputsFromAgent(agent: ServiceAgent, previous: Props): AgentInputs {
  const reported = reportedValues(agent);
  const rebuilt: Props = { ...previous, serviceName: agent.name };
  for (const field of FIELDS) {
    if (field.sentTo !== "service" || !field.manifest) continue;
    const live = field.answer ? field.answer.input(agent) : reported[field.name];
    if (live !== undefined) rebuilt[field.name] = live;
    else if (field.name in reported && field.undeclared === "clear") delete rebuilt[field.name];
  }
  return asInputs(rebuilt);
}

/** The service's agent as the last outputs recorded it (fields a pending create never got stay absent). */
export function agentFromOutputs(olds: Props): ServiceAgent {
  const manifest = olds["manifest"];
  const deployment = olds["deployment"];
  return {
    ...olds,
    name: String(olds["name"] ?? olds["serviceName"]),
    ready: olds["ready"] === true,
    activeDeploymentId: String(olds["activeDeploymentId"] ?? ""),
    activeDeploymentReady: olds["activeDeploymentReady"] === true,
    deployment: isRecord(deployment) ? { ...deployment, ...(isRecord(manifest) ? { manifest } : {}) } : null,
  } as ServiceAgent;
}

const isRecord = (value: unknown): value is Props => typeof value === "object" && value !== null && !Array.isArray(value);

/** The image as the provider's messages name it: a secret image (the program declares it secret) is never shown. */
export function shownImage(image: unknown, secretInputs: readonly string[]): string {
  return secretInputs.includes("image") ? "(a secret)" : String(image);
}
