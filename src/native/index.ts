/**
 * `pulumi-agent-hosting/native`: the Agent, the provider and the functions
 * served by the native plugin `pulumi-resource-agent-hosting` (the engine
 * fetches it from the provider's releases on first use, or it is installed
 * with `pulumi plugin install`). The package root's Agent is the dynamic
 * provider's, which needs no plugin.
 */
export { Agent, type AgentArgs } from "../resources/agent/native-agent";
export { Provider, type ProviderArgs } from "./provider";
export {
  getAgentLogs,
  getAgentLogsOutput,
  getSecretSet,
  getSecretSetOutput,
  type GetAgentLogsArgs,
  type GetAgentLogsOutputArgs,
  type GetSecretSetOutputArgs,
} from "./functions";
