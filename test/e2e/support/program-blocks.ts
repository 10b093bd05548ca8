/**
 * Program blocks of a Markdown file (README.md, docs/_index.md) run as
 * written, as users paste them: each against a new emulator, on a new stack,
 * in the CLI's order: up, whose own preview of the new stack (nothing
 * exists yet) runs first and is checked, then destroy. A separate `pulumi
 * preview` before the up would run that same preview again; that a preview
 * creates nothing is shown in each language by examples.test.ts, whose
 * READMEs list it. Only placeholders change:
 * `<your-service-host>` and `<other-host>` become the emulator's address, and
 * the config a program reads (`otherKey`) is set. After up, the API key is in
 * no output, engine text or file of the stack.
 *
 * TypeScript, Python and Go run through each language's Automation API
 * (test/support/program-runners.ts); YAML is the block written as the
 * program's Pulumi.yaml and the CLI run as commands in its directory, with
 * Pulumi YAML's language host and the plugin installed from its tarball
 * (./yaml-language.ts). Java, which has no Automation API here, runs as users
 * run it too: the block is src/main/java/myproject/App.java of examples/java's
 * layout in the stack's directory, the SDK from a Maven repository built from
 * sdk/java as the release builds it, and the CLI runs up and destroy there
 * through pulumi-language-java (./java-cli-op.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../../src/emulator";
import { startEmu, type Emu } from "../../support/emulator-fixture";
import type { StackConfig } from "../../languages/support/drivers";
import type { OpResult, StackDriver } from "../../support/stack-driver";
import { stackDir, type StackDir } from "../../languages/support/stack-env";
import { GO_PROJECT, goRunner, PYTHON_PROJECT, pythonRunner, typescriptRunner } from "../../support/program-runners";
import type { CodeBlock } from "../../support/readme-blocks";
import { javaCliDriver } from "./java-cli-op";
import { javaExampleProgram, releasedSdkRepository } from "./java-example";
import { yamlProgramEnv } from "./yaml-language";
import { changeCounts } from "./new-stack-lifecycle";
import { runPulumi } from "./pulumi-command";

const API_KEY = "docs-SECRET-key-4e7b21";

/** Languages whose blocks are programs. */
export const PROGRAM_LANGS = new Set(["ts", "typescript", "python", "go", "java", "yaml"]);
/** Blocks of commands, shown, not run. */
export const SHELL_LANGS = new Set(["sh"]);

/** A line only a whole program has: its imports, its package clause, or a YAML program's runtime. */
export const PROGRAM_LINE = /^(import |from \S+ import |package |runtime: )/m;

/** The placeholders of a service address, replaced by the emulator's. */
function withService(code: string, url: string): string {
  return code.replaceAll("https://<your-service-host>/v1", url).replaceAll("https://<other-host>/v1", url);
}

function config(project: string, url: string): StackConfig {
  return {
    "agent-hosting:baseUrl": { value: url },
    "agent-hosting:apiKey": { value: API_KEY, secret: true },
    [`${project}:otherKey`]: { value: API_KEY, secret: true },
  };
}

/** The driver of a TypeScript, Python or Go block, placeholders replaced. */
function driverRunner(block: CodeBlock, url: string, dir: string): StackDriver {
  const code = withService(block.code, url);
  if (block.lang === "python") return pythonRunner(code, config(PYTHON_PROJECT, url));
  if (block.lang === "go") return goRunner(code, config(GO_PROJECT, url), "readme-go");
  return typescriptRunner(code, dir, "readme-ts", config("readme-ts", url));
}


/** A YAML block: the program's Pulumi.yaml, run by the CLI in its directory as a user types the commands. */
function yamlRunner(block: CodeBlock, url: string): StackDriver {
  let initialized = false;
  return {
    language: "YAML",
    run: async (op, stack) => {
      const env = yamlProgramEnv(stack.env);
      const pulumi = (...args: string[]) => runPulumi(args, stack.workDir, env);
      if (!initialized) {
        writeFileSync(join(stack.workDir, "Pulumi.yaml"), withService(block.code, url));
        for (const args of [["stack", "init", "dev"], ["config", "set", "agent-hosting:baseUrl", url], ["config", "set", "--secret", "agent-hosting:apiKey", API_KEY]]) {
          const { code, stdout, stderr } = await pulumi(...args);
          expect(code, `${stdout}${stderr}`).toBe(0);
        }
        initialized = true;
      }
      const result = (code: number, text: string, changeSummary: Record<string, number>, outputs: Record<string, unknown>): OpResult => ({
        ok: code === 0,
        op,
        changeSummary,
        outputs,
        engineOutput: text,
        ...(code === 0 ? {} : { error: text }),
      });
      if (op === "destroy") {
        const { code, stdout, stderr } = await pulumi("destroy", "--yes");
        return result(code, `${stdout}${stderr}`, {}, {});
      }
      if (op === "preview") {
        // `--json` writes the engine's document, with its changeSummary, to stdout.
        const { code, stdout, stderr } = await pulumi("preview", "--json");
        const document = JSON.parse(stdout) as { changeSummary?: Record<string, number> };
        return result(code, `${stdout}${stderr}`, document.changeSummary ?? {}, {});
      }
      const { code, stdout, stderr } = await pulumi("up", "--yes");
      if (code !== 0) return result(code, `${stdout}${stderr}`, {}, {});
      // What the up's own preview planned (its output up to the update's "Updating (dev):"); what the update
      // did, as the stack's history records it; and its outputs.
      const previewed = stdout.split(/^Updating \(/m);
      const [last] = JSON.parse((await pulumi("stack", "history", "--json")).stdout) as { resourceChanges?: Record<string, number> }[];
      const outputs = JSON.parse((await pulumi("stack", "output", "--json")).stdout) as Record<string, unknown>;
      const up = result(code, `${stdout}${stderr}`, last?.resourceChanges ?? {}, outputs);
      return previewed.length > 1 ? { ...up, previewChangeSummary: changeCounts(previewed[0] ?? "") } : up;
    },
  };
}

/** The project of a Java block's stack (the program's own config keys are under it). */
const JAVA_PROJECT = "readme-java";
/** Work outside the stacks' directories (Maven's local repositories), removed after the file. */
let javaWork: string | undefined;

/** A Java block: App.java of examples/java's layout in the stack's directory, run by the CLI there. */
async function javaRunner(block: CodeBlock, url: string, stack: StackDir): Promise<{ driver: StackDriver; harvest(): void }> {
  const code = withService(block.code, url);
  expect(code, "the Java block is class App of package myproject, as examples/java's pom runs it").toMatch(/^package myproject;$[\s\S]*^public class App \{$/m);
  const dir = stack.workDir;
  const sdk = await releasedSdkRepository();
  javaWork ??= mkdtempSync(join(tmpdir(), "agent-hosting-java-blocks-"));
  const { env, harvest } = javaExampleProgram(code, JAVA_PROJECT, dir, mkdtempSync(join(javaWork, "maven-")), sdk, stack.env);
  execFileSync("pulumi", ["stack", "init", "dev"], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
  for (const [key, { value, secret }] of Object.entries(config(JAVA_PROJECT, url))) {
    execFileSync("pulumi", ["config", "set", ...(secret ? ["--secret"] : []), key, value], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
  }
  // The Java program's environment (its Maven, its language host), made from the stack's.
  return { driver: { language: "Java", run: (op, at) => javaCliDriver.run(op, { workDir: at.workDir, env }) }, harvest };
}

/** The API key is in no file of the stack's directory (its state, its config, the program), the installed plugin aside. */
function expectNoKeyInFiles(stack: StackDir): void {
  const plugins = join(stack.workDir, ".state", "pulumi-home", "plugins");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (path === plugins) return [];
      return entry.isDirectory() ? files(path) : [path];
    });
  const all = files(stack.workDir);
  expect(all.some((file) => file.startsWith(stack.backendDir)), "the state's files are among those read").toBe(true);
  expect(all.filter((file) => readFileSync(file, "utf8").includes(API_KEY)), "files holding the API key").toEqual([]);
}

/** Explicit providers a program declares (each is a resource of the stack, not an agent). */
function countProviders(code: string): number {
  return (code.match(/\bProvider\(/g) ?? []).length;
}

/** One describe per program block: up (its own preview of the new stack first), then destroy, against a new emulator. */
export function describeProgramBlocks(file: string, programs: CodeBlock[]): void {
  afterAll(() => {
    if (javaWork) rmSync(javaWork, { recursive: true, force: true });
    javaWork = undefined;
  });
  describe.each(programs.map((b) => [`${b.lang} program at ${file} line ${b.line}`, b] as const))("%s", (_label, block) => {
    let emulator: Emu;
    let control: EmulatorControl;
    let stack: StackDir;
    let driver: StackDriver;
    let harvest = () => undefined as void;
    const texts: string[] = [];

    beforeAll(async () => {
      emulator = await startEmu({
        apiKey: API_KEY,
        readyAfterMs: 300,
        secretSets: { "voice-secrets": ["TOKEN"], "voice-bot-secrets": ["OPENAI_API_KEY", "SIP_PASSWORD"] },
      });
      control = new EmulatorControl(emulator.baseUrl);
      stack = stackDir(`${file.replace(/\W+/g, "-")}-${block.lang}-${block.line}`);
      if (block.lang === "java") ({ driver, harvest } = await javaRunner(block, emulator.url, stack));
      else driver = block.lang === "yaml" ? yamlRunner(block, emulator.url) : driverRunner(block, emulator.url, stack.workDir);
    }, 600_000);
    afterAll(async () => {
      harvest();
      stack?.remove();
      await emulator?.close();
    });

    it("up, after its preview of the new stack, creates its agents and its outputs, then destroy removes them", async () => {
      const record = (r: OpResult) => (texts.push(r.engineOutput, r.error ?? ""), r);
      const up = record(await driver.run("up", stack));
      expect(up.error ?? "", up.engineOutput).toBe("");
      const planned = up.previewChangeSummary?.["create"];
      expect(planned, "creates the up's own preview of the new stack planned").toBeGreaterThan(1);
      expect(up.changeSummary["create"]).toBe(planned);
      expect((await control.listAgents()).agents.length).toBe(up.changeSummary["create"]! - 1 - countProviders(block.code));
      expect(Object.keys(up.outputs).length).toBeGreaterThan(0);
      for (const [name, value] of Object.entries(up.outputs)) expect(value, `output ${name}`).not.toBeUndefined();
      texts.push(JSON.stringify(up.outputs));
      expectNoKeyInFiles(stack);

      const destroy = record(await driver.run("destroy", stack));
      expect(destroy.error ?? "", destroy.engineOutput).toBe("");
      expect((await control.listAgents()).agents).toEqual([]);
      expect(texts.join("\n")).not.toContain(API_KEY);
    });
  });
}
