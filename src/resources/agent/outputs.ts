/**
 * The resource's outputs, from the service's answer, and the inputs rebuilt
 * from it on refresh, both derived from the field table; and how the
 * outputs are kept in the state: typed while a verb holds them (AgentState),
 * written with the engine's secrets (outputProps), read back once at the
 * host (asState), whichever version wrote them.
 */
import { asSecret } from "../../core/engine-sentinels";
import type { Props } from "../../core/resource-entry";
import { AGENT_FIELDS } from "./fields";
import type { AgentField, AgentFieldName } from "./fields";
import type { AgentInputs } from "./inputs-outputs";
import { reportedValues } from "./manifest";
import type { ServiceAgent } from "./service-agent";

/** Each input as the outputs record it, by name, in input form; absent where they record none. */
export type RecordedInputs = { [K in AgentFieldName]?: unknown };

/**
 * The service's answer as the outputs record it, plain JSON: the deployment
 * and its manifest apart (the `deployment` and `manifest` outputs), the
 * scaling as the service reports it.
 */
export type RecordedAgent = {
  name: string;
  ready: boolean;
  activeDeploymentId: string;
  activeDeploymentReady: boolean;
  autoScaling?: Props;
  deployment: Props | null;
  manifest: Props | null;
  createdAt?: string;
  updatedAt?: string;
  activeSessionCount?: number;
  available?: boolean;
  desiredDeploymentId?: string;
};

/**
 * The Agent's outputs as the state keeps them, without the engine's secrets
 * (outputProps marks those when they are written). Read back from a state
 * (asState), any output may have been left out: an earlier version, or a
 * create whose answer never came, wrote it.
 */
export interface AgentState {
  /** Each input as the service reports it where it reports it (so drift shows), else as declared. */
  inputs: RecordedInputs;
  /** The service's answer. */
  agent: RecordedAgent;
}

/** The inputs as a record of field values. */
export function inputValues(inputs: AgentInputs): Props {
  return { ...inputs };
}

const isRecord = (value: unknown): value is Props => typeof value === "object" && value !== null && !Array.isArray(value);

/** A value in input form: an object's members under their input names (a member the service names otherwise read under its name there). */
function inputForm(field: AgentField, value: unknown): unknown {
  if (!field.properties || !isRecord(value)) return value;
  return Object.fromEntries(field.properties.map((p) => [p.name, value[p.name] ?? (p.answerName === undefined ? undefined : value[p.answerName])]));
}

/** Outputs derived from the inputs only: for a create whose answer never came. */
export function outputsWithoutAnswer(inputs: AgentInputs): Props {
  const outputs: Props = { ...inputs, name: inputs.serviceName, deployment: null, manifest: null };
  for (const field of AGENT_FIELDS) if (field.answer) delete outputs[field.name];
  return outputs;
}

/** The answer as the outputs record it: the manifest apart from its deployment, members the service left out left out. */
function recorded(agent: ServiceAgent): RecordedAgent {
  const { deployment } = agent;
  const answer: RecordedAgent = {
    name: agent.name,
    ready: agent.ready,
    activeDeploymentId: agent.activeDeploymentId,
    activeDeploymentReady: agent.activeDeploymentReady,
    autoScaling: agent.autoScaling,
    deployment: deployment ? withoutManifest(deployment) : null,
    manifest: deployment?.manifest ?? null,
  };
  if (agent.createdAt !== undefined) answer.createdAt = agent.createdAt;
  if (agent.updatedAt !== undefined) answer.updatedAt = agent.updatedAt;
  if (agent.activeSessionCount !== undefined) answer.activeSessionCount = agent.activeSessionCount;
  if (agent.available !== undefined) answer.available = agent.available;
  if (agent.desiredDeploymentId !== undefined) answer.desiredDeploymentId = agent.desiredDeploymentId;
  return answer;
}

function withoutManifest(deployment: Props): Props {
  const rest: Props = { ...deployment };
  delete rest["manifest"];
  return rest;
}

/** The outputs of `inputs` over an answer: each input as the answer's manifest reports it, else as declared. */
function stateOf(inputs: AgentInputs, agent: RecordedAgent): AgentState {
  const reported = reportedValues(agent.manifest);
  const declared = inputValues(inputs);
  const recordedInputs: RecordedInputs = {};
  for (const field of AGENT_FIELDS) {
    const value = field.answer
      ? inputForm(field, field.answer.output(agent))
      : field.sentTo === "service" && reported[field.name] !== undefined
        ? reported[field.name]
        : declared[field.name];
    if (value !== undefined) recordedInputs[field.name] = value;
  }
  recordedInputs.serviceName = agent.name;
  return { inputs: recordedInputs, agent };
}

/**
 * Outputs: each input as the service reports it where it reports it (so drift
 * shows on the next preview), else as declared; then the service's answer.
 * The manifest and the deployment are the service's JSON, unknown fields
 * included; the deployment's manifest is the separate `manifest` output.
 */
export function toOutputs(inputs: AgentInputs, agent: ServiceAgent): AgentState {
  return stateOf(inputs, recorded(agent));
}

/** A change of provider settings only, which sends nothing: the previous outputs with the inputs declared now. */
export function withInputs(olds: AgentState, inputs: AgentInputs): AgentState {
  return stateOf(inputs, olds.agent);
}

/** The outputs as the engine keeps them: those that reflect a secret input are the engine's secrets. */
export function outputProps(state: AgentState, secretInputs: readonly string[]): Props {
  const { agent } = state;
  const outputs: Props = {};
  for (const field of AGENT_FIELDS) {
    const value = field.answer ? field.answer.output(agent) : state.inputs[field.name];
    if (value !== undefined) outputs[field.name] = field.answer && secretInputs.includes(field.name) ? asSecret(value) : value;
  }
  const { autoScaling: _reported, ...answer } = agent;
  Object.assign(outputs, answer);
  const secretSent = secretInputs.some((name) => AGENT_FIELDS.some((f) => f.name === name && f.sentTo === "service"));
  if (secretSent) {
    for (const key of ["manifest", "deployment"]) if (outputs[key] !== null) outputs[key] = asSecret(outputs[key]);
  }
  return outputs;
}

/**
 * The service's agent as the last outputs recorded it: a create whose answer
 * never came has no deployment, flags that are false and no scaling.
 */
export function agentFromOutputs(outputs: Props): RecordedAgent {
  const { name, serviceName, ready, activeDeploymentId, activeDeploymentReady, autoScaling, deployment, manifest } = outputs;
  const agent: RecordedAgent = {
    name: String(name ?? serviceName),
    ready: ready === true,
    activeDeploymentId: String(activeDeploymentId ?? ""),
    activeDeploymentReady: activeDeploymentReady === true,
    deployment: isRecord(deployment) ? withoutManifest(deployment) : null,
    manifest: isRecord(deployment) && isRecord(manifest) ? manifest : null,
  };
  if (isRecord(autoScaling)) agent.autoScaling = autoScaling;
  const { createdAt, updatedAt, activeSessionCount, available, desiredDeploymentId } = outputs;
  if (typeof createdAt === "string") agent.createdAt = createdAt;
  if (typeof updatedAt === "string") agent.updatedAt = updatedAt;
  if (typeof activeSessionCount === "number") agent.activeSessionCount = activeSessionCount;
  if (typeof available === "boolean") agent.available = available;
  if (typeof desiredDeploymentId === "string") agent.desiredDeploymentId = desiredDeploymentId;
  return agent;
}

/** The previous outputs, as the state holds them (this version or an earlier one wrote them, without the marks), typed. */
export function asState(outputs: Props): AgentState {
  const inputs: RecordedInputs = {};
  for (const field of AGENT_FIELDS) {
    const value = inputForm(field, outputs[field.name]);
    if (value !== undefined) inputs[field.name] = value;
  }
  return { inputs, agent: agentFromOutputs(outputs) };
}

/** Coerces resolved resource properties (checked inputs or recorded ones) into AgentInputs. */
export function asInputs(props: Props): AgentInputs {
  const inputs: Props = {};
  for (const field of AGENT_FIELDS) {
    let value = inputForm(field, props[field.name]);
    const record = value;
    if (field.properties && isRecord(record) && !field.properties.every((p) => typeof record[p.name] === (p.type === "string" ? "string" : "number"))) {
      value = undefined;
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
export function inputsFromAgent(agent: ServiceAgent, previous: RecordedInputs): AgentInputs {
  const reported = reportedValues(agent.deployment?.manifest);
  const rebuilt: Props = { ...previous, serviceName: agent.name };
  for (const field of AGENT_FIELDS) {
    if (field.sentTo !== "service" || !field.manifest) continue;
    const live = field.answer ? field.answer.input(agent) : reported[field.name];
    if (live !== undefined) rebuilt[field.name] = live;
    else if (field.name in reported && field.undeclared === "clear") delete rebuilt[field.name];
  }
  return asInputs(rebuilt);
}

/** The image as the provider's messages name it: a secret image (the program declares it secret) is never shown. */
export function shownImage(image: unknown, secretInputs: readonly string[]): string {
  return secretInputs.includes("image") ? "(a secret)" : String(image);
}
