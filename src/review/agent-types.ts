/** The resource types under which an Agent appears in a preview. */

/** An Agent of the package's dynamic provider (`pulumi-nodejs:dynamic/<module>:<type>`). */
export const DYNAMIC_AGENT_TYPE = "pulumi-nodejs:dynamic/agent-hosting:Agent";
/** An Agent of a native `agent-hosting` provider plugin. */
export const NATIVE_AGENT_TYPE = "agent-hosting:index:Agent";

export type AgentProviderKind = "dynamic" | "native";

/** Which provider an Agent of this type comes from, or undefined when the type is not an Agent. */
export function agentProviderKind(type: string | undefined): AgentProviderKind | undefined {
  if (type === DYNAMIC_AGENT_TYPE) return "dynamic";
  if (type === NATIVE_AGENT_TYPE) return "native";
  return undefined;
}
