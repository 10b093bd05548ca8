/**
 * A Java program, as users run it: examples/java's pom.xml with the test's
 * program (test/e2e/programs/java/App.java) in a program directory, the Java
 * SDK from the release's Maven repository (a file:// repository in the pom),
 * the native plugin installed from its tarball, pulumi-language-java on PATH
 * beside the CLI, and the CLI run as
 * commands in that directory: stack init, config, up, whose own preview of
 * the new stack runs first and is checked, a no-op preview, refresh, import
 * of an agent made outside Pulumi (the CLI prints Java code), destroy. (A
 * separate `pulumi preview` before the up would run that same preview again;
 * examples.test.ts runs examples/java's, which its README lists, and shows
 * that it creates nothing.) The
 * program declares an agent through the default provider and one through an
 * explicit provider, and calls getSecretSet and getAgentLogs in their Output
 * and plain forms. The API key never shows in any output, the state or any
 * file of the program's directory.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releasedSdkRepository } from "./support/java-example";
import { repoRoot } from "../languages/support/drivers";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { useEmulator } from "../support/emulator-fixture";
import { isolateMaven, javaProgramEnv, withRepository } from "./support/java-program";
import { initStackWithConfig, pulumiCommands } from "./support/pulumi-command";

const API_KEY = "java-SECRET-key-3c9d57";

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 300, secretSets: { "voice-secrets": ["TOKEN", "SIP_PASSWORD"] } });
let program: StackDir;
let env: NodeJS.ProcessEnv;
let harvest: () => void = () => undefined;
const cli = pulumiCommands(() => ({ cwd: program.workDir, env }));
const { seen, ok } = cli;

function filesUnder(dir: string, skip: string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (skip.includes(path)) return [];
    return entry.isDirectory() ? filesUnder(path, skip) : [path];
  });
}

beforeAll(async () => {
  program = stackDir("java-program");
  const state = join(program.workDir, ".state");
  const sdkRepository = await releasedSdkRepository();
  for (const file of ["Pulumi.yaml", ".mvn"]) cpSync(join(repoRoot, "examples/java", file), join(program.workDir, file), { recursive: true });
  const pom = readFileSync(join(repoRoot, "examples/java/pom.xml"), "utf8");
  writeFileSync(join(program.workDir, "pom.xml"), withRepository(pom, "agent-hosting-sdk", `file://${sdkRepository}`));
  mkdirSync(join(program.workDir, "src/main/java/myproject"), { recursive: true });
  cpSync(join(repoRoot, "test/e2e/programs/java/App.java"), join(program.workDir, "src/main/java/myproject/App.java"));
  harvest = isolateMaven(program.workDir, state).harvest;
  env = javaProgramEnv(program.env);
  // The agent the program's plain getAgentLogs reads: made before the program runs, outside Pulumi.
  await fx.client.createAgent({ serviceName: "java-seed", image: "registry.example.com/seed:1" });
}, 600_000);

afterAll(() => {
  harvest();
  program?.remove();
});

describe("a Java program with the CLI in its directory", () => {
  it("runs the user's commands in order: up after its preview of the new stack, no-op preview, refresh, import, destroy", async () => {
    await initStackWithConfig(cli, fx.emulator);
    await ok("config", "set", "otherUrl", fx.emulator.url);
    await ok("config", "set", "--secret", "otherKey", API_KEY);

    // The up's own preview of the new stack (its output up to the update's "Updating (dev):") plans both agents and the explicit provider.
    const up = await ok("up", "--yes");
    const [preview = "", update] = up.split(/^Updating \(/m);
    expect(update, "the up's update after its preview").toBeDefined();
    expect(preview).toMatch(/\+ +agent-hosting:index:Agent +bot +create/);
    expect(preview).toMatch(/\+ +agent-hosting:index:Agent +other-bot +create/);
    expect(preview).toMatch(/\+ +pulumi:providers:agent-hosting +other +create/);
    expect(preview).toContain("4 to create");
    expect(update).toContain("4 created");
    const outputs = JSON.parse(await ok("stack", "output", "--json")) as Record<string, unknown>;
    const live = await fx.client.getAgent("java-bot");
    expect(live.ready).toBe(true);
    expect(outputs["botId"]).toBe("java-bot");
    expect(outputs["deploymentId"]).toBe(live.activeDeploymentId);
    expect(outputs["ready"]).toBe(true);
    expect(outputs["otherBotId"]).toBe("java-other-bot");
    expect((await fx.client.getAgent("java-other-bot")).ready).toBe(true);
    expect(outputs["secretFields"]).toEqual(["TOKEN", "SIP_PASSWORD"]);
    expect(outputs["plainSecretFields"]).toEqual(["TOKEN", "SIP_PASSWORD"]);
    expect(typeof outputs["logTotal"]).toBe("number");
    expect(typeof outputs["plainLogCount"]).toBe("number");

    await ok("preview", "--expect-no-changes");
    expect(await ok("refresh", "--yes")).toMatch(/4 unchanged/);

    // An agent made outside Pulumi, imported: the state holds it and the CLI prints Java to paste.
    await fx.client.createAgent({ serviceName: "outside-bot", image: "registry.example.com/other:2" });
    const imported = await ok("import", "agent-hosting:index:Agent", "outside", "outside-bot", "--yes");
    expect(imported).toMatch(/new Agent\("outside", AgentArgs\.builder\(\)/);
    expect(imported).toContain('.serviceName("outside-bot")');
    expect(imported).toContain("import com.github.agent_hosting.agenthosting.Agent;");
    expect(await ok("stack", "export")).toContain('"id": "outside-bot"');

    // The import marks it protected, as the CLI says; unprotected, destroy deletes every agent of the stack.
    await ok("state", "unprotect", "--all", "--yes");
    await ok("destroy", "--yes");
    expect((await fx.control.listAgents()).agents.map((a) => a.name)).toEqual(["java-seed"]);

    expect(seen.join("\n")).not.toContain(API_KEY);
    expect(seen.join("\n")).not.toContain("pulumi-resource-agent-hosting from $PATH");
    const plugins = join(program.workDir, ".state", "pulumi-home", "plugins");
    const files = filesUnder(program.workDir, [plugins, join(program.workDir, ".state", "m2")]);
    expect(files.some((f) => f.startsWith(program.backendDir)), "the state's files are among those read").toBe(true);
    expect(files.filter((f) => readFileSync(f).includes(API_KEY)), "files holding the API key").toEqual([]);
  });
});
