// The environment for running the real `pulumi` CLI offline on a local file
// backend: the CLI from scripts/pulumi-cli.sh (built once, cached outside the
// repo) on PATH beside `pulumi-resource-pulumi-nodejs`.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
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

/** Environment variables for an offline stack whose backend and home live under `stateDir`. */
export function offlineEnv(stateDir, extra = {}) {
  const backend = join(stateDir, "backend");
  const home = join(stateDir, "pulumi-home");
  mkdirSync(backend, { recursive: true });
  mkdirSync(home, { recursive: true });
  return {
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "agent-hosting-local-passphrase",
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    ...extra,
  };
}

/** Puts the CLI on PATH of this process (the Automation API looks there). */
export function usePulumiCli() {
  const dir = pulumiCliDir();
  if (!(process.env.PATH ?? "").split(":").includes(dir)) {
    process.env.PATH = `${dir}:${process.env.PATH ?? ""}`;
  }
  return dir;
}
