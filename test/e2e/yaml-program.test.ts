/**
 * Pulumi YAML, as users run it: examples/yaml copied into a program
 * directory, the native plugin installed from its tarball with `pulumi plugin
 * install`, Pulumi YAML's language host (pulumi-yaml.sh) beside the
 * CLI, and the CLI run as commands in that directory: stack init, config,
 * the first preview of the new stack, up (which previews first), a no-op
 * preview, refresh, drift shown and restored, import of an agent made
 * outside Pulumi, destroy. The API key never shows in any output or the state.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../languages/support/drivers";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { useEmulator } from "../support/emulator-fixture";
import { initStackWithConfig, pulumiCommands } from "./support/pulumi-command";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "yaml-SECRET-key-6a1f03";

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 300, secretSets: { "voice-bot-secrets": ["OPENAI_API_KEY", "SIP_PASSWORD"] } });
let program: StackDir;
let env: NodeJS.ProcessEnv;
const cli = pulumiCommands(() => ({ cwd: program.workDir, env }));
const { seen, ok } = cli;
const pulumi = cli.run;

const specAtService = async (name: string) => (await fx.client.getAgent(name)).deployment?.manifest?.["spec"];

beforeAll(() => {
  program = stackDir("yaml-program");
  copyFileSync(join(repoRoot, "examples/yaml/Pulumi.yaml"), join(program.workDir, "Pulumi.yaml"));
  env = yamlProgramEnv(program.env);
});

afterAll(() => program?.remove());

describe("a Pulumi YAML program with the CLI in its directory", () => {
  it("runs the user's commands in order: first preview, up, no-op preview, refresh, drift, import, destroy", async () => {
    await initStackWithConfig(cli, fx.emulator);

    // The first preview of the new stack: nothing exists; the logs read of ${bot.name} waits for the update.
    const preview = await ok("preview");
    expect(preview).toMatch(/\+ +agent-hosting:index:Agent +bot +create/);
    expect(preview).toMatch(/newestLogLines: +\[unknown\]/);
    expect((await fx.control.listAgents()).agents).toEqual([]);

    const up = await ok("up", "--yes");
    expect(up).toContain("2 created");
    const outputs = JSON.parse(await ok("stack", "output", "--json")) as Record<string, unknown>;
    const live = await fx.client.getAgent("voice-bot");
    expect(outputs["deploymentId"]).toBe(live.activeDeploymentId);
    expect(outputs["secretFields"]).toEqual(["OPENAI_API_KEY", "SIP_PASSWORD"]);
    expect(outputs["manifest"]).toMatchObject({ spec: { image: "registry.example.com/voice-bot:1.4.2", autoScaling: { minReplicas: 1, maxReplicas: 5 } } });
    expect(Array.isArray(outputs["newestLogLines"])).toBe(true);

    await ok("preview", "--expect-no-changes");
    expect(await ok("refresh", "--yes")).toMatch(/2 unchanged/);

    // Drift made outside Pulumi: refresh reads it, the preview shows it, up restores the declared image.
    await fx.client.updateAgent("voice-bot", { image: "registry.example.com/voice-bot:9.9.9", secretSet: "voice-bot-secrets", enableNoise: true, autoScaling: { minAgents: 1, maxAgents: 5 } });
    await ok("refresh", "--yes");
    const drifted = await pulumi("preview", "--expect-no-changes", "--diff");
    expect(drifted.code).not.toBe(0);
    expect(drifted.out).toMatch(/image *: "registry\.example\.com\/voice-bot:9\.9\.9" => "registry\.example\.com\/voice-bot:1\.4\.2"/);
    await ok("up", "--yes");
    expect(await specAtService("voice-bot")).toMatchObject({ image: "registry.example.com/voice-bot:1.4.2" });

    // An agent made outside Pulumi, imported: the state holds it and the CLI prints YAML to paste.
    await fx.client.createAgent({ serviceName: "outside-bot", image: "registry.example.com/other:2" });
    const imported = await ok("import", "agent-hosting:index:Agent", "outside", "outside-bot", "--yes");
    expect(seen.join("\n")).not.toContain("pulumi-resource-agent-hosting from $PATH");
    expect(imported).toMatch(/resources:\n {2}outside:\n {4}type: agent-hosting:(index:)?Agent\n/);
    expect(imported).toContain("serviceName: outside-bot");
    const state = await ok("stack", "export");
    expect(state).toContain('"id": "outside-bot"');

    // The import marks it protected, as the CLI says; unprotected, destroy deletes both agents.
    await ok("state", "unprotect", "--all", "--yes");
    await ok("destroy", "--yes");
    expect((await fx.control.listAgents()).agents).toEqual([]);
    expect(seen.join("\n")).not.toContain(API_KEY);
  });
});
