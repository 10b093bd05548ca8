/**
 * The Agent as it is stored and read back. The service's agent as the
 * package reads it (the types generated from src/client/answer-types.ts;
 * the members it relies on checked by src/client/schemas.ts), and the
 * deployment an answer wants. What is sent and what the service reports of
 * it, from the field table: the create and update bodies (declared values,
 * defaults, the live value of a "keep" field, nothing for a "clear" one) and
 * the one mapping between a body and the manifest, both ways. The outputs:
 * each input as the service reports it (so drift shows), else as declared,
 * then the answer; typed while a verb holds them (AgentState), written with
 * the engine's secrets (outputProps), read back once at the host (asState),
 * and the inputs rebuilt from a live agent on refresh. And the agent as the
 * readiness wait watches it: one GET per poll, ready when the service serves
 * the wanted deployment and both ready flags are true; progress lines and
 * failures read the wanted deployment's logs, since on a service that rolls
 * updates the old deployment serves until the new one validates.
 */
import { manifestValueAt } from "../../client/agent-body";
import type { ServiceAgent } from "../../client/answer-types";
import type { CreateAgentBody, UpdateAgentBody } from "../../client/bodies";
import type { AgentHostingClient } from "../../client/client";
import { retryReason } from "../../client/retry";
import { asSecret, UNKNOWN_VALUE } from "../../core/engine-sentinels";
import type { Watched } from "../../core/readiness";
import type { Call, Props } from "../../core/resource-entry";
import { isTagForm, pinImage, readBackReference as readBackImage } from "../../image-registry/reference-parts";
import { AGENT_FIELDS, SERVICE_FIELDS } from "./fields";
import type { AgentField, AgentFieldName } from "./fields";
import type { AgentInputs } from "./inputs-outputs";
export type { AgentAutoScalingStatus as Replicas, Deployment, Manifest, ManifestSpec, ServiceAgent } from "../../client/answer-types";

/** What names the wanted deployment, in an answer or in the outputs that recorded one. */
type WantedMembers = Pick<ServiceAgent, "activeDeploymentId" | "desiredDeploymentId"> & { deployment?: { id?: unknown } | null | undefined };

/**
 * The deployment a create or update answer names as new:
 * `desiredDeploymentId` on a service that rolls updates, else the
 * deployment the answer describes, else the active one (a scaling-only
 * update on a service that switches at once names none: the serving one).
 */
export function wantedDeploymentOf(agent: WantedMembers): string {
  const described = agent.deployment?.id;
  return agent.desiredDeploymentId ?? (typeof described === "string" && described !== "" ? described : agent.activeDeploymentId);
}

/** The deployment the agent rolls out but does not serve yet; none when what it wants is what serves. */
export function pendingDeploymentOf(agent: ServiceAgent): string | undefined {
  const wanted = wantedDeploymentOf(agent);
  return wanted === agent.activeDeploymentId ? undefined : wanted;
}

/** Whether the service serves `deploymentId` (default: the deployment the agent itself wants) and both ready flags are true. */
export function isAgentReady(agent: ServiceAgent, deploymentId: string = wantedDeploymentOf(agent)): boolean {
  return agent.ready && agent.activeDeploymentReady && agent.deployment !== null && agent.activeDeploymentId === deploymentId;
}

export type RequestBody = Record<string, unknown>;

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

/** The checked input and the output that carry the digest a tag-form image is pinned to (preview-verbs.ts resolves it). */
export const IMAGE_DIGEST = "imageDigest";

/** The digest checked inputs carry, when they pin. */
export function checkedDigest(inputs: AgentInputs | Props): string | undefined {
  const digest = (inputs as Props)[IMAGE_DIGEST];
  return typeof digest === "string" && digest !== UNKNOWN_VALUE ? digest : undefined;
}

/** The image the service is sent: `name@sha256:…` when the inputs pin a tag-form image, so it runs the build previewed. */
function sentImage(inputs: AgentInputs): string {
  const digest = checkedDigest(inputs);
  return digest !== undefined && isTagForm(inputs.image) ? pinImage(inputs.image, digest) : inputs.image;
}

/** POST /agents: the agent's whole spec, its image pinned when the inputs pin it. */
export function createBody(inputs: AgentInputs): CreateAgentBody {
  return { ...bodyOf({ ...inputs }, undefined, true), serviceName: inputs.serviceName, image: sentImage(inputs) };
}

/** POST /agents/{name}: the whole spec without serviceName; `live` supplies the values to keep. */
export function updateBody(inputs: AgentInputs, live: ServiceAgent | undefined): UpdateAgentBody {
  return { ...bodyOf({ ...inputs }, live, false), image: sentImage(inputs) };
}

/** Each input as the outputs record it, by name, in input form; absent where they record none. */
export type RecordedInputs = { [K in AgentFieldName]?: unknown };

/**
 * The service's answer as the outputs record it, plain JSON: the deployment
 * and its manifest apart (the `deployment` and `manifest` outputs), the
 * scaling as the service reports it.
 */
export type RecordedAgent = Pick<ServiceAgent, RecordedMember> & { autoScaling?: Props; deployment: Props | null; manifest: Props | null };

/** The members of the answer the outputs record as the service sent them. */
type RecordedMember = "name" | "ready" | "activeDeploymentId" | "activeDeploymentReady" | "createdAt" | "updatedAt" | "activeSessionCount" | "available" | "desiredDeploymentId";

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
  /** The digest the image is pinned to (the `imageDigest` output), when it is. */
  imageDigest?: string;
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
  // The service reports a pinned image as `name@sha256:…`: recorded as declared, with its digest.
  const image = reported["image"] === undefined ? { image: declared["image"], digest: checkedDigest(inputs) } : readBackImage(reported["image"], declared["image"]);
  if (image.image !== undefined) reported["image"] = image.image;
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
  return image.digest === undefined ? { inputs: recordedInputs, agent } : { inputs: recordedInputs, agent, imageDigest: image.digest };
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
  // The digest derives from the image: secret when the program declares the image secret.
  if (state.imageDigest !== undefined) outputs[IMAGE_DIGEST] = secretInputs.includes("image") ? asSecret(state.imageDigest) : state.imageDigest;
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
  const digest = outputs[IMAGE_DIGEST];
  const agent = agentFromOutputs(outputs);
  return typeof digest === "string" ? { inputs, agent, imageDigest: digest } : { inputs, agent };
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
  // The digest check pinned the image to travels with the inputs to create and update (preview-verbs.ts).
  const digest = checkedDigest(props);
  if (digest !== undefined) inputs[IMAGE_DIGEST] = digest;
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
  // A pinned image reads back as the declared tag and the digest the service runs; an adopted one as the service reports it.
  const image = readBackImage(rebuilt["image"], previous.image);
  rebuilt["image"] = image.image;
  if (image.digest === undefined) delete rebuilt[IMAGE_DIGEST];
  else rebuilt[IMAGE_DIGEST] = image.digest;
  return asInputs(rebuilt);
}

/** The image as the provider's messages name it: a secret image (the program declares it secret) is never shown. */
export function shownImage(image: unknown, secretInputs: readonly string[]): string {
  return secretInputs.includes("image") ? "(a secret)" : String(image);
}

/** The wanted deployment was replaced at the service by another (an update from outside this stack): waiting for it cannot end. */
export class DeploymentSupersededError extends Error {
  constructor(name: string, wanted: string, agent: ServiceAgent) {
    super(
      `agent "${name}": deployment ${wanted}, which this operation waits for, was superseded at the service by deployment ${wantedDeploymentOf(agent)} ` +
        `(an update from outside this stack?); the service serves deployment ${agent.activeDeploymentId} (ready=${agent.ready}, activeDeploymentReady=${agent.activeDeploymentReady}). ` +
        "Run `pulumi refresh` to record what the service runs, then `pulumi up` to apply the program again.",
    );
    this.name = "DeploymentSupersededError";
  }
}

/** Whether the agent has moved on from `wanted`: it neither serves it nor still wants it. */
function superseded(agent: ServiceAgent, wanted: string): boolean {
  return agent.activeDeploymentId !== wanted && wantedDeploymentOf(agent) !== wanted;
}

/** The state of the agent in a progress line or a failure: what serves and, while it differs, what is wanted. */
export function describeAgent(agent: ServiceAgent | undefined, wanted?: string): string {
  if (agent === undefined) return "no answer yet";
  const target = wanted ?? wantedDeploymentOf(agent);
  const flags = `ready=${agent.ready}, activeDeploymentReady=${agent.activeDeploymentReady}`;
  const nulled = agent.deployment === null ? ", deployment not reported yet" : "";
  if (target === agent.activeDeploymentId) return `deployment ${target}, ${flags}${nulled}`;
  const available = agent.available === undefined ? "" : `, available=${agent.available}`;
  return `deployment ${target} not serving yet (deployment ${agent.activeDeploymentId} serves${available}), ${flags}${nulled}`;
}

/**
 * `wanted`: the deployment to wait for, as the create or update answer named
 * it (wantedDeploymentOf); without it, the one each answer names.
 */
export function watchedAgent(client: AgentHostingClient, name: string, wanted?: string): Watched<ServiceAgent> {
  return {
    label: `agent "${name}"`,
    poll: async (signal) => {
      const agent = await client.getAgent(name, { signal, maxRetries: 0 });
      if (wanted !== undefined && superseded(agent, wanted)) throw new DeploymentSupersededError(name, wanted, agent);
      return agent;
    },
    isReady: (agent) => isAgentReady(agent, wanted),
    describe: (agent) => describeAgent(agent, wanted),
    newestLogs: async (agent, count, startTime) => {
      const deploymentId = wanted ?? wantedDeploymentOf(agent);
      const since = startTime === undefined ? {} : { startTime };
      const page = await client.getAgentLogs({ agentName: agent.name, deploymentId, limit: count, order: "desc", ...since });
      return [...page.logs].reverse();
    },
  };
}

/** Tells each failed poll of the agent that the wait polls again, as a retry note on the resource's row. */
export function failedPollNotes(call: Call, name: string): (error: unknown, attempt: number, delayMs: number) => void {
  return (error, attempt, delayMs) => {
    const path = error instanceof Error && "path" in error && typeof error.path === "string" ? error.path : `/agents/${name}`;
    call.log.retry({ method: "GET", path, attempt, delayMs, reason: retryReason(error) });
  };
}
