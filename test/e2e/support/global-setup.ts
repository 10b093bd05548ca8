/**
 * Before any test: build the package's dist/ link and provide the pulumi CLI,
 * Pulumi YAML's language host and pulumi-java's language host and generator
 * once (pulumi-cli.sh, pulumi-yaml.sh and
 * pulumi-java.mjs build them from source on a cold machine and
 * cache them outside the repo), so parallel test files never race to build them.
 * The plugin's tarball is packed once too, for every stack that installs it
 * (test/languages/support/stack-env.ts), and removed after the last test.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLUGIN_TARBALL_ENV, SCRIPT, pulumiJavaDir } from "../../support/project-scripts";

export default function setup(): (() => void) | undefined {
  execFileSync(process.execPath, [SCRIPT.linkSelf], { stdio: "inherit" });
  const dir = execFileSync("bash", [SCRIPT.pulumiCli], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .pop();
  if (dir) {
    process.env["PATH"] = `${dir}:${process.env["PATH"] ?? ""}`;
    process.env["AGENT_HOSTING_PULUMI_CLI_DIR"] = dir;
    // Its version, asked once here instead of by each stack operation (scripts/lib/workspace-shortcuts.mjs).
    const version = execFileSync(`${dir}/pulumi`, ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
    process.env["AGENT_HOSTING_PULUMI_CLI_VERSION"] = version.trim().replace(/^v/, "");
  }
  // Pulumi YAML's language host, for the YAML program tests (built once, cached like the CLI).
  execFileSync("bash", [SCRIPT.pulumiYaml], { stdio: ["ignore", "ignore", "inherit"] });
  // pulumi-language-java for the Java program tests, pulumi-java-gen for the generated SDKs' check.
  pulumiJavaDir();
  // Each project that names this setup runs it; the first packs the tarball, the second finds it.
  if (existsSync(process.env[PLUGIN_TARBALL_ENV] ?? "")) return undefined;
  const out = mkdtempSync(join(tmpdir(), "agent-hosting-plugin-"));
  process.env[PLUGIN_TARBALL_ENV] = execFileSync(process.execPath, [SCRIPT.packPlugin, out], { encoding: "utf8" }).trim();
  return () => rmSync(out, { recursive: true, force: true });
}
