/**
 * The environment of a Pulumi YAML program run with the CLI in its
 * directory: Pulumi YAML's language host (pulumi-yaml.sh builds it
 * once) first on PATH, as a Pulumi install ships it beside the CLI, and the
 * plugin the installed one: no node_modules/.bin (where a test runner puts
 * this package's own bin) on the user's PATH.
 */
import { execFileSync } from "node:child_process";
import { languageHostEnv } from "./language-host-env";
import { SCRIPT } from "../../support/project-scripts";

let hostDir: string | undefined;

/** The directory holding pulumi-language-yaml. */
export function yamlLanguageHostDir(): string {
  hostDir ??= execFileSync("bash", [SCRIPT.pulumiYaml], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .pop();
  if (!hostDir) throw new Error(`${SCRIPT.pulumiYaml} printed no directory`);
  return hostDir;
}

/**
 * A stack's environment (test/languages/support/stack-env.ts or
 * released-stack.ts) for the YAML language host, which the engine finds on
 * PATH as an ambient plugin, and the installed provider plugin.
 */
export function yamlProgramEnv(stackEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return languageHostEnv(stackEnv, yamlLanguageHostDir());
}
