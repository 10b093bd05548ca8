/**
 * The Agent's names, the same for the resources, the plugin and the review
 * bin: its type tokens, and the serialized provider text of its dynamic type.
 * It imports nothing of the package, so anything may read these names.
 */

/** An Agent of the package's dynamic provider (`pulumi-nodejs:dynamic/<module>:<type>`). */
export const DYNAMIC_AGENT_TYPE = "pulumi-nodejs:dynamic/agent-hosting:Agent";
/** An Agent of the native `agent-hosting` provider plugin. */
export const NATIVE_AGENT_TYPE = "agent-hosting:index:Agent";
/**
 * The module the dynamic provider's serialized text loads at call time (the
 * package.json `exports` entry, src/hosts/dynamic/provider-impl.ts); it also
 * marks an Agent registered under the generic dynamic type. States written
 * since 0.1.0 name it: it must stay and keep resolving.
 */
export const PROVIDER_IMPLEMENTATION_MODULE = "pulumi-agent-hosting/provider-impl";

/**
 * The serialized provider: the `__provider` text every dynamic resource of
 * this package carries in its state, twice (inputs and outputs), and that the
 * engine sends in every check, diff and register call on every preview.
 *
 * Pulumi's dynamic-provider process (`@pulumi/pulumi/cmd/dynamic-provider`)
 * loads this text as a CommonJS module and calls `exports.handler()` once,
 * before its first call to the provider; the handler loads the provider
 * module from the installed package and returns its `provider`. `require`
 * resolves from the provider process's working directory, the program's
 * directory, where `pulumi-agent-hosting` is installed.
 *
 * The text is written here rather than produced by Pulumi's closure
 * serializer: it captures nothing by construction (no client, no schema, no
 * key), and it stays one short line whatever the implementation's size. Its
 * size is paid per resource and per call, so it is part of what a no-op
 * preview of many resources costs.
 */
export function providerSource(module: string): string {
  return `exports.handler = () => require(${JSON.stringify(module)}).provider;\n`;
}

/** The Agent's `__provider` text (the one 0.1.0 writes). */
export const AGENT_PROVIDER_SOURCE = providerSource(PROVIDER_IMPLEMENTATION_MODULE);
