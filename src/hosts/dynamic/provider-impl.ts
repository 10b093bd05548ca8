/**
 * The Agent's dynamic provider: the module the serialized text loads
 * (`pulumi-agent-hosting/provider-impl`, the text 0.1.0 writes; see
 * src/resources/agent/type-tokens.ts), one per provider process.
 */
import { REGISTRY } from "../../registry";
import { DYNAMIC_AGENT_TYPE } from "../../resources/agent/type-tokens";
import { createDynamicProvider } from "./dynamic-host";
import type { DynamicHostOptions, DynamicProvider, PulumiDynamicProvider } from "./dynamic-host";

/** The provider the serialized text hands to Pulumi's dynamic-provider process. */
export const provider = createDynamicProvider({ registry: REGISTRY, type: DYNAMIC_AGENT_TYPE }) satisfies PulumiDynamicProvider;

/** A dynamic provider of the Agent with other options (an undici dispatcher, a log), as a program's own host would make it. */
export function createAgentDynamicProvider(options: Omit<DynamicHostOptions, "registry" | "type"> = {}): DynamicProvider {
  return createDynamicProvider({ ...options, registry: REGISTRY, type: DYNAMIC_AGENT_TYPE });
}
