/** Turning the service's Agent into the resource's outputs, and back into inputs (refresh). */
import type { Agent, CreateAgentBody, UpdateAgentBody } from "../client/schemas";
import { INPUT_DEFAULTS, type AgentInputs, type AgentOutputs } from "./types";

/** The request body for create (with serviceName) or update (without). */
export function toUpdateBody(inputs: AgentInputs): UpdateAgentBody {
  const body: UpdateAgentBody = { image: inputs.image, nodeType: inputs.nodeType, enableNoise: inputs.enableNoise };
  if (inputs.imagePullSecretSet !== undefined) body.imagePullSecretSet = inputs.imagePullSecretSet;
  if (inputs.secretSet !== undefined) body.secretSet = inputs.secretSet;
  if (inputs.autoScaling !== undefined) {
    body.autoScaling = { minAgents: inputs.autoScaling.minAgents, maxAgents: inputs.autoScaling.maxAgents };
  }
  return body;
}

export function toCreateBody(inputs: AgentInputs): CreateAgentBody {
  return { serviceName: inputs.serviceName, ...toUpdateBody(inputs) };
}

/** Outputs: the inputs with defaults, then every field of the live agent. */
export function toOutputs(inputs: AgentInputs, agent: Agent): AgentOutputs {
  const outputs: AgentOutputs = {
    serviceName: inputs.serviceName,
    image: inputs.image,
    nodeType: inputs.nodeType,
    enableNoise: inputs.enableNoise,
    waitForReady: inputs.waitForReady,
    readyTimeoutSeconds: inputs.readyTimeoutSeconds,
    name: agent.name,
    ready: agent.ready,
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
    activeDeploymentId: agent.activeDeploymentId,
    activeDeploymentReady: agent.activeDeploymentReady,
    autoScaling: agent.autoScaling,
    activeSessionCount: agent.activeSessionCount,
    deployment: agent.deployment,
    manifest: agent.deployment?.manifest ?? null,
  };
  if (inputs.imagePullSecretSet !== undefined) outputs.imagePullSecretSet = inputs.imagePullSecretSet;
  if (inputs.secretSet !== undefined) outputs.secretSet = inputs.secretSet;
  return outputs;
}

/** Coerces resolved resource properties (inputs or old outputs) into AgentInputs. */
export function asInputs(props: Record<string, unknown>): AgentInputs {
  const inputs: AgentInputs = {
    serviceName: String(props["serviceName"]),
    image: String(props["image"]),
    nodeType: "arm",
    enableNoise: props["enableNoise"] === undefined ? INPUT_DEFAULTS.enableNoise : Boolean(props["enableNoise"]),
    waitForReady: props["waitForReady"] === undefined ? INPUT_DEFAULTS.waitForReady : Boolean(props["waitForReady"]),
    readyTimeoutSeconds:
      typeof props["readyTimeoutSeconds"] === "number" ? props["readyTimeoutSeconds"] : INPUT_DEFAULTS.readyTimeoutSeconds,
  };
  if (typeof props["imagePullSecretSet"] === "string") inputs.imagePullSecretSet = props["imagePullSecretSet"];
  if (typeof props["secretSet"] === "string") inputs.secretSet = props["secretSet"];
  const scaling = props["autoScaling"] as Record<string, unknown> | undefined;
  if (scaling && typeof scaling === "object") {
    const min = scaling["minAgents"] ?? scaling["minReplicas"];
    const max = scaling["maxAgents"] ?? scaling["maxReplicas"];
    if (typeof min === "number" && typeof max === "number") inputs.autoScaling = { minAgents: min, maxAgents: max };
  }
  return inputs;
}

/**
 * Inputs rebuilt from the live manifest (refresh and Agent.get), so drift made
 * outside Pulumi shows as a diff. Provider settings come from the old state.
 */
export function inputsFromAgent(agent: Agent, previous: Partial<AgentInputs>): AgentInputs {
  const spec = agent.deployment?.manifest.spec;
  const inputs: AgentInputs = {
    serviceName: agent.name,
    image: spec?.image ?? previous.image ?? "",
    nodeType: "arm",
    enableNoise: spec?.noiseModels.enabled ?? previous.enableNoise ?? INPUT_DEFAULTS.enableNoise,
    waitForReady: previous.waitForReady ?? INPUT_DEFAULTS.waitForReady,
    readyTimeoutSeconds: previous.readyTimeoutSeconds ?? INPUT_DEFAULTS.readyTimeoutSeconds,
    autoScaling: { minAgents: agent.autoScaling.minReplicas, maxAgents: agent.autoScaling.maxReplicas },
  };
  const secretSet = spec ? spec.envFromSecretNames[0] : previous.secretSet;
  if (secretSet !== undefined) inputs.secretSet = secretSet;
  const pullSet = spec?.imagePullSecretNames ? spec.imagePullSecretNames[0] : previous.imagePullSecretSet;
  if (pullSet !== undefined) inputs.imagePullSecretSet = pullSet;
  return inputs;
}
