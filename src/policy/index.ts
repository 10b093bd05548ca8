/** `pulumi-agent-hosting/policy`: the CrossGuard policy pack for Agents, and its rules as plain functions. */
export { AGENT_POLICY_NAMES, DEFAULT_MAX_AGENTS_CAP, agentPolicies, createAgentPolicyPack } from "./pack";
export {
  checkImagePinned,
  checkMaxAgentsCap,
  checkOnFailureRollback,
  checkPrivateRegistryPullSecret,
  checkScalingRange,
  checkSecretSetRequiredSecrets,
} from "./agent-rules";
export type { AgentProps, ImagePinnedConfig, MaxAgentsCapConfig, PrivateRegistryConfig } from "./agent-rules";
export { DYNAMIC_AGENT_TYPE_TOKEN, NATIVE_AGENT_TYPE_TOKEN, isAgentResource } from "./agent-resource";
export { parseImageReference, fromRegistry } from "./image-reference";
export type { ImageReference } from "./image-reference";
