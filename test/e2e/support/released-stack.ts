/**
 * A stack as a user of the released provider has it: a work directory under
 * the OS temp dir with a file backend and a PULUMI_HOME of its own, empty
 * (no plugin installed), and an environment without this repository: PATH
 * holds the pulumi CLI, node (the plugin's launcher runs it) and the system's
 * directories. Automatic plugin acquisition is on, and the schema's
 * pluginDownloadURL is redirected to a release server standing in for the
 * GitHub release.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PLUGIN_DOWNLOAD_URL } from "../../../src/core/plugin-download-url";

export interface ReleasedStack {
  workDir: string;
  /** The file backend's directory and PULUMI_HOME, where the state and the fetched plugin live. */
  stateDir: string;
  pulumiHome: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `regexp=URL`, the schema's download URL to the release server. */
export function downloadOverride(releaseUrl: string): string {
  return `^${escapeRegExp(PLUGIN_DOWNLOAD_URL)}$=${releaseUrl}`;
}

export function releasedStack(label: string, cliDir: string, releaseUrl: string): ReleasedStack {
  const workDir = mkdtempSync(join(tmpdir(), `agent-hosting-released-${label}-`));
  const stateDir = join(workDir, ".state");
  const backend = join(stateDir, "backend");
  const pulumiHome = join(stateDir, "pulumi-home");
  // The CLI's plugin downloader leaves each tarball it fetched in the temp directory; here they go with the stack.
  const temp = join(workDir, ".tmp");
  for (const dir of [backend, pulumiHome, temp]) mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    HOME: process.env["HOME"] ?? workDir,
    TMPDIR: temp,
    PATH: [cliDir, dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "agent-hosting-local-passphrase",
    PULUMI_HOME: pulumiHome,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    // Only a plugin the engine fetched, never one on PATH.
    PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: downloadOverride(releaseUrl),
    // The emulator's images are in no registry: image pinning stays as the test run sets it (off, vitest.config.ts).
    AGENT_HOSTING_PIN_IMAGE_DIGESTS: process.env["AGENT_HOSTING_PIN_IMAGE_DIGESTS"] ?? "false",
  };
  return { workDir, stateDir, pulumiHome, env, remove: () => rmSync(workDir, { recursive: true, force: true }) };
}
