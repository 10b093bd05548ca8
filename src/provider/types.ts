/** Plain (resolved) shapes the provider works with: inputs after check, and outputs. */
import type { Agent, Deployment, Manifest } from "../client/schemas";

export interface AutoScalingInput {
  minAgents: number;
  maxAgents: number;
}

/** AgentArgs after `check`: defaults applied, every value known. */
export interface AgentInputs {
  serviceName: string;
  image: string;
  nodeType: "arm";
  imagePullSecretSet?: string;
  secretSet?: string;
  autoScaling?: AutoScalingInput;
  enableNoise: boolean;
  waitForReady: boolean;
  readyTimeoutSeconds: number;
}

/** Outputs of Agent: every input (defaults applied) plus the service's Agent fields and `manifest`. */
export interface AgentOutputs extends Omit<AgentInputs, "autoScaling"> {
  name: string;
  ready: boolean;
  createdAt: string;
  updatedAt: string;
  activeDeploymentId: string;
  activeDeploymentReady: boolean;
  autoScaling: Agent["autoScaling"];
  activeSessionCount: number;
  deployment: Deployment | null;
  manifest: Manifest | null;
}

export const INPUT_DEFAULTS = {
  nodeType: "arm",
  enableNoise: false,
  waitForReady: true,
  readyTimeoutSeconds: 600,
} as const;

/** Provider settings: inputs of the resource that are never sent to the service. */
export const PROVIDER_SETTINGS = ["waitForReady", "readyTimeoutSeconds"] as const;

/** The dynamic provider's reserved property holding the serialized provider. */
export const PROVIDER_KEY = "__provider";

/** The value a preview passes for an input not known yet. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
