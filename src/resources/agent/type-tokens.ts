/** The Pulumi type tokens of the Agent, the same for the resources, the plugin and the review bin. */
import { providerSource } from "../../hosts/dynamic/shim";

/** An Agent of the package's dynamic provider (`pulumi-nodejs:dynamic/<module>:<type>`). */
export const DYNAMIC_AGENT_TYPE = "pulumi-nodejs:dynamic/agent-hosting:Agent";
/** An Agent of the native `agent-hosting` provider plugin. */
export const NATIVE_AGENT_TYPE = "agent-hosting:index:Agent";
/**
 * The module the dynamic provider's serialized text loads at call time (the
 * package.json `exports` entry); it also marks an Agent registered under the
 * generic dynamic type.
 */
export const PROVIDER_IMPLEMENTATION_MODULE = "pulumi-agent-hosting/provider-impl";

/** The Agent's `__provider` text (the one 0.1.0 writes). */
export const AGENT_PROVIDER_SOURCE = providerSource(PROVIDER_IMPLEMENTATION_MODULE);
