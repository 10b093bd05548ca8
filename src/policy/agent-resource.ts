/**
 * Which resources the pack checks: Agents of the package's dynamic provider
 * and of the native plugin, by the type tokens the engine shows for them.
 */

/** The dynamic Agent, as the engine names its type. */
export const DYNAMIC_AGENT_TYPE_TOKEN = "pulumi-nodejs:dynamic/agent-hosting:Agent";
/** The native plugin's Agent. */
export const NATIVE_AGENT_TYPE_TOKEN = "agent-hosting:index:Agent";
/** A dynamic resource registered without a type name carries this type; its provider code then names the package. */
const GENERIC_DYNAMIC_TYPE = "pulumi-nodejs:dynamic:Resource";
const PROVIDER_MODULE = "pulumi-agent-hosting/provider-impl";

export function isAgentResource(type: string, props: Record<string, unknown>): boolean {
  if (type === DYNAMIC_AGENT_TYPE_TOKEN || type === NATIVE_AGENT_TYPE_TOKEN) return true;
  if (type !== GENERIC_DYNAMIC_TYPE) return false;
  const code = props["__provider"];
  return typeof code === "string" && code.includes(PROVIDER_MODULE);
}
