/**
 * A stack's environment (test/languages/support/stack-env.ts) for a program
 * run with the CLI in its directory by a language host the engine finds on
 * PATH, as a Pulumi install ships it beside the CLI. The provider plugin is
 * the installed one: no node_modules/.bin (where a test runner puts this
 * package's own bin) on the user's PATH, and ambient plugins allowed so the
 * engine finds the language host.
 */
export function languageHostEnv(stackEnv: NodeJS.ProcessEnv, hostDir: string): NodeJS.ProcessEnv {
  const { PULUMI_IGNORE_AMBIENT_PLUGINS: _ignored, ...rest } = stackEnv;
  const path = (stackEnv["PATH"] ?? "").split(":").filter((dir) => !dir.includes("node_modules"));
  return { ...rest, PATH: [hostDir, ...path].join(":") };
}
