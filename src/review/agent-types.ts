/** How a preview's resource is known to be an Agent. */
import type { PreviewState } from "./preview";
import { DYNAMIC_AGENT_TYPE, NATIVE_AGENT_TYPE, PROVIDER_IMPLEMENTATION_MODULE } from "../resources/agent/type-tokens";

/** The type of a dynamic resource registered without a module and type name. */
export const GENERIC_DYNAMIC_TYPE = "pulumi-nodejs:dynamic:Resource";

export type AgentProviderKind = "dynamic" | "native";

function servedByThisPackage(state: PreviewState | undefined): boolean {
  const code = state?.inputs?.["__provider"] ?? state?.outputs?.["__provider"];
  return typeof code === "string" && code.includes(PROVIDER_IMPLEMENTATION_MODULE);
}

/**
 * Which provider an Agent comes from, or undefined when the resource is not
 * an Agent: by its type, or, under the generic dynamic type, by the provider
 * code it carries.
 */
export function agentProviderKind(type: string | undefined, states: readonly (PreviewState | undefined)[] = []): AgentProviderKind | undefined {
  if (type === DYNAMIC_AGENT_TYPE) return "dynamic";
  if (type === NATIVE_AGENT_TYPE) return "native";
  if (type === GENERIC_DYNAMIC_TYPE && states.some(servedByThisPackage)) return "dynamic";
  return undefined;
}
