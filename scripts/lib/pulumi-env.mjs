// The repository's root, and the real `pulumi` CLI from scripts/pulumi-cli.sh
// (built once, cached outside the repo) beside `pulumi-resource-pulumi-nodejs`.
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

let cliDir;

/** Directory holding `pulumi`; builds it on first use (progress on stderr). */
export function pulumiCliDir() {
  // Set by the test suite's global setup once the CLI is provided.
  if (!cliDir && process.env.AGENT_HOSTING_PULUMI_CLI_DIR) cliDir = process.env.AGENT_HOSTING_PULUMI_CLI_DIR;
  if (!cliDir) {
    const out = execFileSync("bash", [join(repoRoot, "scripts/pulumi-cli.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    cliDir = out.trim().split("\n").pop();
  }
  return cliDir;
}

/** Puts the CLI on PATH of this process (the Automation API looks there). */
export function usePulumiCli() {
  const dir = pulumiCliDir();
  if (!(process.env.PATH ?? "").split(":").includes(dir)) {
    process.env.PATH = `${dir}:${process.env.PATH ?? ""}`;
  }
  return dir;
}
