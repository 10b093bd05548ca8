/**
 * The resource's outputs, from the service's answer, and the inputs rebuilt
 * from it on refresh, both derived from the field table.
 */
import {
  AGENT_FIELDS,
  reportedValues,
  type AgentField,
  type AgentInputs,
  type AgentOutputs,
  type ServiceAgent,
} from "../model";
import { asSecret } from "../engine-sentinels";
import { PENDING_KEY, SECRET_INPUTS_KEY } from "./types";

type Props = Record<string, unknown>;
const FIELDS = AGENT_FIELDS as readonly AgentField[];

/** What the provider keeps in the outputs beyond AgentOutputs. */
export interface OutputMarks {
  secretInputs: readonly string[];
  /** A create or update that was sent and did not finish. */
  pending?: "create" | "update";
}

/** Outputs derived from the inputs only: for a create whose answer never came. */
export function outputsWithoutAnswer(inputs: AgentInputs, marks: OutputMarks): Props {
  const outputs: Props = { ...inputs, name: inputs.serviceName, deployment: null, manifest: null };
  for (const field of FIELDS) if (field.answer) delete outputs[field.name];
  return mark(outputs, marks);
}

function mark(outputs: Props, marks: OutputMarks): Props {
  if (marks.secretInputs.length > 0) outputs[SECRET_INPUTS_KEY] = [...marks.secretInputs];
  if (marks.pending) outputs[PENDING_KEY] = marks.pending;
  return outputs;
}

/**
 * Outputs: each input as the service reports it where it reports it (so drift
 * shows on the next preview), else as declared; then the service's answer.
 * The manifest and the deployment are the service's JSON, unknown fields
 * included; the deployment's manifest is the separate `manifest` output.
 * Outputs that reflect a secret input are returned as secrets.
 */
export function toOutputs(inputs: AgentInputs, agent: ServiceAgent, marks: OutputMarks): Props {
  const reported = reportedValues(agent);
  const declared = inputs as unknown as Props;
  const outputs: Props = {};
  for (const field of FIELDS) {
    const value = field.answer
      ? field.answer.output(agent)
      : field.sentTo === "service" && reported[field.name] !== undefined
        ? reported[field.name]
        : declared[field.name];
    if (value !== undefined) outputs[field.name] = field.answer && marks.secretInputs.includes(field.name) ? asSecret(value) : value;
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
  Object.assign(outputs, answer);
  const secretSent = marks.secretInputs.some((name) => FIELDS.some((f) => f.name === name && f.sentTo === "service"));
  if (secretSent) {
    for (const key of ["manifest", "deployment"]) if (outputs[key] !== null) outputs[key] = asSecret(outputs[key]);
  }
  return mark(outputs, marks);
}

function withoutManifest(deployment: NonNullable<ServiceAgent["deployment"]>): Props {
  const rest: Props = { ...deployment };
  delete rest["manifest"];
  return rest;
}

/** The marks kept in old outputs (or inputs). */
export function marksOf(props: Props): OutputMarks {
  const secretInputs = Array.isArray(props[SECRET_INPUTS_KEY]) ? (props[SECRET_INPUTS_KEY] as unknown[]).filter((v): v is string => typeof v === "string") : [];
  const pending = props[PENDING_KEY];
  return pending === "create" || pending === "update" ? { secretInputs, pending } : { secretInputs };
}

/** Coerces resolved resource properties (checked inputs or old outputs) into AgentInputs. */
export function asInputs(props: Props): AgentInputs {
  const inputs: Props = {};
  for (const field of FIELDS) {
    let value = props[field.name];
    if (field.properties && typeof value === "object" && value !== null) {
      const record = value as Props;
      const members = field.properties.map((p) => [p.name, record[p.name] ?? record[p.answerName]] as const);
      value = members.every(([, v]) => typeof v === "number") ? Object.fromEntries(members) : undefined;
    }
    if (value === undefined || value === null) value = field.default;
    if (value !== undefined) inputs[field.name] = value;
  }
  return inputs as unknown as AgentInputs;
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

/** The service's agent as the last outputs recorded it. */
export function agentFromOutputs(olds: Props): ServiceAgent {
  const manifest = olds["manifest"];
  const deployment = olds["deployment"];
  return {
    ...olds,
    name: String(olds["name"] ?? olds["serviceName"]),
    ready: olds["ready"] === true,
    activeDeploymentId: String(olds["activeDeploymentId"] ?? ""),
    activeDeploymentReady: olds["activeDeploymentReady"] === true,
    deployment:
      deployment && typeof deployment === "object" ? { ...(deployment as Props), ...(manifest ? { manifest: manifest as Props } : {}) } : null,
  } as ServiceAgent;
}
