/**
 * A stack's place on disk and its environment: the file backend and
 * PULUMI_HOME under <work dir>/.state (where stack-op.mjs puts them
 * too), with the plugin installed there from its tarball by
 * `pulumi plugin install`, exactly as a user installs it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./drivers";
import { PLUGIN_TARBALL_ENV, SCRIPT } from "../../support/project-scripts";

const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
let tarball: string | undefined;

/**
 * The plugin tarball (pack-plugin.mjs): the one the global setup
 * (test/e2e/support/global-setup.ts) packed for the whole run, or, in a
 * process started without it, one packed here and removed when it exits.
 */
export function pluginTarball(): string {
  const packed = process.env[PLUGIN_TARBALL_ENV];
  if (packed && existsSync(packed)) return packed;
  if (!tarball) {
    const out = mkdtempSync(join(tmpdir(), "agent-hosting-plugin-"));
    process.on("exit", () => rmSync(out, { recursive: true, force: true }));
    tarball = execFileSync(process.execPath, [SCRIPT.packPlugin, out], { encoding: "utf8" }).trim();
  }
  return tarball;
}

export interface StackDir {
  workDir: string;
  /** The file backend's directory (the state lives here). */
  backendDir: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

export function stackDir(label: string): StackDir {
  const workDir = join(repoRoot, ".e2e-work", `${label}-${process.pid}-${Date.now().toString(36)}`);
  const backendDir = join(workDir, ".state", "backend");
  const home = join(workDir, ".state", "pulumi-home");
  mkdirSync(backendDir, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "agent-hosting-local-passphrase",
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    // Only the installed plugin, never a pulumi-resource-agent-hosting that happens to be on PATH.
    PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
  };
  execFileSync("pulumi", ["plugin", "install", "resource", "agent-hosting", version, "--file", pluginTarball()], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  return { workDir, backendDir, env, remove: () => rmSync(workDir, { recursive: true, force: true }) };
}
