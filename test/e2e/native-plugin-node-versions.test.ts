/**
 * The native plugin's tarball on the Node releases users run
 * (test/support/compat-matrix.ts): the plugin's launcher runs `node` from
 * PATH, so a user's own Node runs it. For each release, that Node is put
 * first on PATH, the plugin is installed from its tarball with `pulumi plugin
 * install`, and the CLI runs examples/yaml (Pulumi YAML, so no other Node
 * process takes part) in its directory: preview, up, destroy. /proc shows
 * that every plugin process the engine started ran on that Node, and the
 * plugin's directory that Node kept the compiled bundle.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../src/emulator";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { NATIVE_PLUGIN_NODES } from "../support/compat-matrix";
import { watchProcesses } from "../support/process-watch";
import { repoRoot } from "../languages/support/drivers";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { pulumiCommands } from "./support/pulumi-command";
import { SCRIPT } from "../support/project-scripts";

const API_KEY = "plugin-node-SECRET-41c7e2";
const pluginVersion = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

/** The directory of `node` of that exact release, from node-version.mjs (installed on first use). */
function nodeBinDir(version: string): string {
  const out = execFileSync(process.execPath, [SCRIPT.nodeVersion, version], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").pop() ?? "";
}

let yamlHost: string;

beforeAll(() => {
  yamlHost = execFileSync("bash", [SCRIPT.pulumiYaml], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .pop() ?? "";
});

describe.each(NATIVE_PLUGIN_NODES)("the native plugin on Node %s", (node) => {
  let nodeBin: string;
  let emulator: Emu;
  let control: EmulatorControl;
  let program: StackDir;
  let env: NodeJS.ProcessEnv;
  const cli = pulumiCommands(() => ({ cwd: program.workDir, env }));
  const seen = cli.seen;

  /** Runs `pulumi args` in the program directory; a non-zero exit fails with the output. */
  async function pulumi(...args: string[]): Promise<string> {
    const { code, out } = await cli.run(...args);
    if (code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${code}:\n${out}`);
    return out;
  }

  beforeAll(async () => {
    nodeBin = nodeBinDir(node);
    // Readiness after 3 s keeps the plugin process alive long enough to be seen in /proc during `up`.
    emulator = await startEmu({ apiKey: API_KEY, readyAfterMs: 3000, secretSets: { "voice-bot-secrets": ["OPENAI_API_KEY", "SIP_PASSWORD"] } });
    control = new EmulatorControl(emulator.baseUrl);
    program = stackDir(`plugin-node-${node}`);
    copyFileSync(join(repoRoot, "examples/yaml/Pulumi.yaml"), join(program.workDir, "Pulumi.yaml"));
    // The language host is found on PATH, as a Pulumi install ships it beside the CLI; the plugin is the installed one,
    // with no node_modules/.bin (where a test runner puts this package's own bin) on PATH.
    const { PULUMI_IGNORE_AMBIENT_PLUGINS: _ignored, ...rest } = program.env;
    const path = (process.env["PATH"] ?? "").split(delimiter).filter((dir) => !dir.includes("node_modules"));
    env = { ...rest, PATH: [nodeBin, yamlHost, ...path].join(delimiter) };
  });

  afterAll(async () => {
    await emulator?.close();
    program?.remove();
  });

  it("runs preview, up and destroy of the YAML program, every plugin process on that Node", async () => {
    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "agent-hosting:baseUrl", emulator.url);
    await pulumi("config", "set", "--secret", "agent-hosting:apiKey", API_KEY);

    const plugins = watchProcesses(join(program.env["PULUMI_HOME"] ?? "", "plugins", `resource-agent-hosting-v${pluginVersion}`, "lib", "native", "plugin.js"));
    let processes;
    try {
      expect(await pulumi("preview")).toMatch(/\+ +agent-hosting:index:Agent +bot +create/);
      expect(await pulumi("up", "--yes")).toContain("2 created");
      const outputs = JSON.parse(await pulumi("stack", "output", "--json")) as Record<string, unknown>;
      expect(outputs["secretFields"]).toEqual(["OPENAI_API_KEY", "SIP_PASSWORD"]);
      expect((await control.listAgents()).agents.map((a) => a.name)).toEqual(["voice-bot"]);
      expect(await pulumi("destroy", "--yes")).toContain("2 deleted");
      expect((await control.listAgents()).agents).toEqual([]);
    } finally {
      processes = plugins.stop();
    }
    // The plugin process of up's update at least lives through a 3 s readiness wait.
    expect(processes.length).toBeGreaterThanOrEqual(1);
    expect(new Set(processes.map((p) => p.exe))).toEqual(new Set([realpathSync(join(nodeBin, "node"))]));
    expect(seen.join("\n")).not.toContain(API_KEY);
    expect(seen.join("\n")).not.toContain("pulumi-resource-agent-hosting from $PATH");
    // The launcher points Node's compile cache (Node 22.1 and later, so every Node of this matrix) into the plugin's
    // directory: the starts after the first read the compiled bundle from it. It holds code, never the key.
    const cacheDir = join(program.env["PULUMI_HOME"] ?? "", "plugins", `resource-agent-hosting-v${pluginVersion}`, ".node-compile-cache");
    const cached = readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(cached.length).toBeGreaterThanOrEqual(1);
    for (const file of cached) expect(readFileSync(join(file.parentPath, file.name)).includes(API_KEY), file.name).toBe(false);
  });
});
