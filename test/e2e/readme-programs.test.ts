/**
 * The README's programs run as written, as users paste them: every code
 * block that is a program (TypeScript, Python, Go) is taken from README.md
 * and run against the emulator, on a new stack, in the CLI's order: a
 * preview of the new stack (nothing exists yet), then up (which previews
 * first), then destroy. Only placeholders change: `<your-service-host>` and
 * `<other-host>` become the emulator's address, and the config a program
 * reads (`otherKey`) is set. A block that is neither shell, nor a program
 * run here, nor a fragment listed below fails the test, so a new README
 * program cannot escape it (in any language, or unlabelled). After up, the
 * API key is in no output, engine text or file of the stack. The README's
 * example is examples/basic/index.ts, byte for byte, and its YAML program is
 * examples/yaml/Pulumi.yaml, which test/e2e/yaml-program.test.ts runs with
 * the CLI in a program directory.
 *
 * Programs run through each language's Automation API (no language host
 * binary exists here), by test/support/program-runners.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl, startEmulator } from "../../src/emulator";
import { repoRoot } from "../languages/support/drivers";
import type { OpResult } from "../languages/support/run";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { GO_PROJECT, PYTHON_PROJECT, goRunner, pythonRunner, typescriptRunner, type ProgramRunner } from "../support/program-runners";
import { readmeBlocks, type CodeBlock } from "../support/readme-blocks";

const API_KEY = "readme-SECRET-key-4e7b21";
/** Languages whose blocks are programs; a block of another language than these and SHELL_LANGS fails the test unless listed below. */
const PROGRAM_LANGS = new Set(["ts", "typescript", "python", "go", "yaml"]);
const SHELL_LANGS = new Set(["sh"]);

/** Blocks that are not whole programs, each known by a line of it, with why. */
const FRAGMENTS: { lang: string; line: string; why: string }[] = [
  { lang: "", line: "require github.com/agent-hosting/pulumi-agent-hosting/sdk/go v0.0.0", why: "two lines of a Go program's go.mod" },
  { lang: "python", line: 'opts=pulumi.ResourceOptions(import_="voice-bot"))', why: "one resource's import option, inside the Python program above" },
  { lang: "go", line: 'pulumi.Import(pulumi.ID("voice-bot"))', why: "one resource's import option, inside the Go program above" },
  { lang: "ts", line: "registry.example.com/voice-bot@sha256:", why: "one declaration showing an image pinned by digest" },
  { lang: "ts", line: "redeployTrigger: process.env.BUILD_ID", why: "one declaration showing redeployTrigger" },
  { lang: "ts", line: "const client = new AgentHostingClient(", why: "client calls outside Pulumi, not a program" },
];

const fragmentOf = (block: CodeBlock) => FRAGMENTS.find((f) => f.lang === block.lang && block.code.includes(f.line));
/** A line only a whole program has: its imports or its package clause. */
const PROGRAM_LINE = /^(import |from \S+ import |package )/m;

/** A YAML block must be examples/yaml/Pulumi.yaml, which test/e2e/yaml-program.test.ts runs with the CLI in its directory. */
const YAML_EXAMPLE = readFileSync(join(repoRoot, "examples/yaml/Pulumi.yaml"), "utf8");

const allBlocks = readmeBlocks(repoRoot);
const unclassified = allBlocks.filter((b) => !SHELL_LANGS.has(b.lang) && !PROGRAM_LANGS.has(b.lang) && fragmentOf(b) === undefined);
const candidates = allBlocks.filter((b) => PROGRAM_LANGS.has(b.lang) && fragmentOf(b) === undefined);
const yamlPrograms = candidates.filter((b) => b.lang === "yaml");
/** Every other program block is run below: one that cannot run alone fails its own test. */
const programs = candidates.filter((b) => b.lang !== "yaml");

/** The placeholders of a service address, replaced by the emulator's. */
function withService(code: string, url: string): string {
  return code.replaceAll("https://<your-service-host>/v1", url).replaceAll("https://<other-host>/v1", url);
}

function config(project: string, url: string): Record<string, { value: string; secret?: boolean }> {
  return {
    "agent-hosting:baseUrl": { value: url },
    "agent-hosting:apiKey": { value: API_KEY, secret: true },
    [`${project}:otherKey`]: { value: API_KEY, secret: true },
  };
}

const tsRunner = (block: CodeBlock, url: string, dir: string): ProgramRunner =>
  typescriptRunner(withService(block.code, url), dir, "readme-ts", config("readme-ts", url));
const pyRunner = (block: CodeBlock, url: string): ProgramRunner => pythonRunner(withService(block.code, url), config(PYTHON_PROJECT, url));
const golangRunner = (block: CodeBlock, url: string): ProgramRunner => goRunner(withService(block.code, url), config(GO_PROJECT, url), "readme-go");

describe("the README's code blocks", () => {
  it("each is shell, a program run here, or a listed fragment; each listed fragment is one block of the README and no whole program", () => {
    expect(unclassified.map((b) => `README line ${b.line}: a "${b.lang}" block is neither shell, nor a program language, nor a listed fragment`)).toEqual([]);
    expect(programs.map((b) => b.lang).sort()).toEqual(expect.arrayContaining(["go", "python", "ts"]));
    for (const fragment of FRAGMENTS) {
      const matches = allBlocks.filter((b) => b.lang === fragment.lang && b.code.includes(fragment.line));
      expect(matches.map((b) => b.line), fragment.line).toHaveLength(1);
      expect(matches[0]?.code, `a listed fragment with imports or a package clause is a program to run: ${fragment.line}`).not.toMatch(PROGRAM_LINE);
    }
  });

  it("each YAML program is examples/yaml/Pulumi.yaml byte for byte (run through the CLI by yaml-program.test.ts)", () => {
    expect(yamlPrograms.length).toBeGreaterThan(0);
    for (const block of yamlPrograms) expect(block.code, `README line ${block.line}`).toBe(YAML_EXAMPLE);
  });

  it('the block of the section "The example" is examples/basic/index.ts, byte for byte', () => {
    const example = readFileSync(join(repoRoot, "examples/basic/index.ts"), "utf8");
    const shown = allBlocks.filter((b) => b.section === "The example" && b.lang === "ts");
    expect(shown.map((b) => b.code)).toEqual([example]);
  });
});

describe.each(programs.map((b) => [`${b.lang} program at README line ${b.line}`, b] as const))("%s", (_label, block) => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let control: EmulatorControl;
  let stack: StackDir;
  let run: ProgramRunner;
  const texts: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({
      port: 0,
      apiKey: API_KEY,
      readyAfterMs: 300,
      secretSets: { "voice-secrets": ["TOKEN"], "voice-bot-secrets": ["OPENAI_API_KEY", "SIP_PASSWORD"] },
    });
    control = new EmulatorControl(emulator.baseUrl);
    stack = stackDir(`readme-${block.lang}-${block.line}`);
    const lang = block.lang === "typescript" ? "ts" : block.lang;
    if (lang === "ts") run = tsRunner(block, emulator.url, stack.workDir);
    else if (lang === "python") run = pyRunner(block, emulator.url);
    else run = golangRunner(block, emulator.url);
  });
  afterAll(async () => {
    stack?.remove();
    await emulator?.close();
  });

  it("previews on a new stack, then up creates its agents and its outputs, then destroy removes them", async () => {
    const record = (r: OpResult) => (texts.push(r.engineOutput, r.error ?? ""), r);
    const preview = record(await run("preview", stack));
    expect(preview.error ?? "", preview.engineOutput).toBe("");
    expect(preview.changeSummary["create"]).toBeGreaterThan(1);
    expect((await control.listAgents()).agents).toEqual([]);

    const up = record(await run("up", stack));
    expect(up.error ?? "", up.engineOutput).toBe("");
    expect(up.changeSummary["create"]).toBe(preview.changeSummary["create"]);
    expect((await control.listAgents()).agents.length).toBe(up.changeSummary["create"]! - 1 - countProviders(block.code));
    expect(Object.keys(up.outputs).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(up.outputs)) expect(value, `output ${name}`).not.toBeUndefined();
    texts.push(JSON.stringify(up.outputs));
    expectNoKeyInFiles(stack);

    const destroy = record(await run("destroy", stack));
    expect(destroy.error ?? "", destroy.engineOutput).toBe("");
    expect((await control.listAgents()).agents).toEqual([]);
    expect(texts.join("\n")).not.toContain(API_KEY);
  });
});

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
