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

/** The text for a provider module (a package.json `exports` entry) that exports `provider`. */
export function providerSource(module: string): string {
  return `exports.handler = () => require(${JSON.stringify(module)}).provider;\n`;
}
