/**
 * The README's programs run as written, as users paste them: every code
 * block that is a program (TypeScript, Python, Go, Java) is taken from README.md
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
 * binary exists here): TypeScript transpiled and loaded inside the inline
 * program; Python exec'd as __main__ inside the inline program; Go with its
 * `func main() { pulumi.Run(f) }` turned into `func init() { readmeProgram =
 * pulumi.RunFunc(f) }`, built beside the Go language driver, which runs it.
 * Java, which has no Automation API here, runs as users run it: the block is
 * src/main/java/myproject/App.java of examples/java's layout in the stack's
 * directory, the SDK from a Maven repository built from sdk/java as the
 * release builds it, and the CLI runs `pulumi preview|up|destroy` there
 * through pulumi-language-java.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheRoot, goProgram, sourceHash } from "../../scripts/lib/go-tool.mjs";
import { writeMavenRepository } from "../../scripts/lib/release/maven-repository.mjs";
import { releaseVersion } from "../../scripts/lib/release/names.mjs";
import { sourceDateEpoch } from "../../scripts/lib/release/source-date.mjs";
import { EmulatorControl, startEmulator } from "../../src/emulator";
import { pythonDriver, repoRoot } from "../languages/support/drivers";
import { runDriver, type OpResult } from "../languages/support/run";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { readmeBlocks, type CodeBlock } from "../support/readme-blocks";
import { javaCliOp } from "./support/java-cli-op";
import { isolateMaven, javaHostDir, withRepository } from "./support/java-program";

const API_KEY = "readme-SECRET-key-4e7b21";
/** Languages whose blocks are programs; a block of another language than these and SHELL_LANGS fails the test unless listed below. */
const PROGRAM_LANGS = new Set(["ts", "typescript", "python", "go", "java", "yaml"]);
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

type Op = "preview" | "up" | "destroy";
type Runner = (op: Op, stack: StackDir) => Promise<OpResult>;

/** A TypeScript block: transpiled to CommonJS and required inside scripts/stack-op.mjs's inline program. */
function typescriptRunner(block: CodeBlock, url: string, dir: string): Runner {
  const js = ts.transpileModule(withService(block.code, url), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  writeFileSync(join(dir, "readme-program.js"), js);
  // Required afresh inside the program, so its resources register in the run; its exports are the stack's outputs.
  writeFileSync(
    join(dir, "program.cjs"),
    `module.exports = () => {
  delete require.cache[require.resolve("./readme-program.js")];
  const { __esModule, ...outputs } = require("./readme-program.js");
  return outputs;
};
`,
  );
  return (op, stack) =>
    runDriver(
      process.execPath,
      [join(repoRoot, "scripts/stack-op.mjs"), op, "--work-dir", stack.workDir, "--project", "readme-ts", "--program", join(dir, "program.cjs"), "--config", JSON.stringify(config("readme-ts", url))],
      stack.env,
      repoRoot,
    );
}

function pythonRunner(block: CodeBlock, url: string): Runner {
  pythonDriver.prepare();
  return (op, stack) => pythonDriver.run(op, stack.workDir, { config: config("agent-hosting-python", url), source: withService(block.code, url) }, stack.env);
}

/** A Go block: `func main() { pulumi.Run(f) }` becomes the Go driver's readmeProgram, built beside it. */
function goRunner(block: CodeBlock, url: string): Runner {
  const code = withService(block.code, url)
    .replace(/^func main\(\) \{\n\tpulumi\.Run\(/m, "func init() {\n\treadmeProgram = pulumi.RunFunc(");
  expect(code, "the Go block's main calls pulumi.Run").toContain("readmeProgram = pulumi.RunFunc(");
  const driver = join(repoRoot, "test/languages/go");
  const source = join(cacheRoot, "readme-go-src", createHash("sha256").update(sourceHash([driver])).update(code).digest("hex").slice(0, 16));
  mkdirSync(source, { recursive: true });
  for (const file of ["go.mod", "go.sum", "main.go"]) cpSync(join(driver, file), join(source, file));
  const mod = readFileSync(join(source, "go.mod"), "utf8").replace("=> ../../../sdk/go", `=> ${join(repoRoot, "sdk/go")}`);
  writeFileSync(join(source, "go.mod"), mod);
  writeFileSync(join(source, "readme_program.go"), code);
  const binary = goProgram("readme-go", source, [join(repoRoot, "sdk/go")]);
  return (op, stack) => runDriver(binary, [op, stack.workDir, JSON.stringify({ config: config("agent-hosting-go", url) })], stack.env, stack.workDir);
}

/** Work outside the stack's directory (the SDK's Maven repository, Maven's local repository), removed after the file. */
let javaWork: string | undefined;
let javaSdkRepository: string | undefined;

/** The SDK's Maven repository, built from sdk/java once per file as `npm run release` builds it. */
function javaSdk(): string {
  if (!javaSdkRepository) {
    javaWork = mkdtempSync(join(tmpdir(), "agent-hosting-readme-java-"));
    javaSdkRepository = join(javaWork, "sdk-maven");
    writeMavenRepository(javaSdkRepository, releaseVersion(), sourceDateEpoch());
  }
  return javaSdkRepository;
}

/** A Java block: App.java of examples/java's layout in the stack's directory, run by the CLI there. */
function javaRunner(block: CodeBlock, url: string, stack: StackDir): { run: Runner; harvest(): void } {
  const code = withService(block.code, url);
  expect(code, "the Java block is class App of package myproject, as examples/java's pom runs it").toMatch(/^package myproject;$[\s\S]*^public class App \{$/m);
  const dir = stack.workDir;
  writeFileSync(join(dir, "Pulumi.yaml"), "name: readme-java\nruntime: java\n");
  cpSync(join(repoRoot, "examples/java/.mvn"), join(dir, ".mvn"), { recursive: true });
  const pom = readFileSync(join(repoRoot, "examples/java/pom.xml"), "utf8");
  writeFileSync(join(dir, "pom.xml"), withRepository(pom, "agent-hosting-sdk", `file://${javaSdk()}`));
  mkdirSync(join(dir, "src/main/java/myproject"), { recursive: true });
  writeFileSync(join(dir, "src/main/java/myproject/App.java"), code);
  const { harvest } = isolateMaven(dir, mkdtempSync(join(javaWork as string, "maven-")));
  const { PULUMI_IGNORE_AMBIENT_PLUGINS: _ignored, ...rest } = stack.env;
  const path = (process.env["PATH"] ?? "").split(":").filter((entry) => !entry.includes("node_modules"));
  const env = { ...rest, PATH: [javaHostDir(), ...path].join(":") };
  execFileSync("pulumi", ["stack", "init", "dev"], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
  for (const [key, { value, secret }] of Object.entries(config("readme-java", url))) {
    execFileSync("pulumi", ["config", "set", ...(secret ? ["--secret"] : []), key, value], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
  }
  return { run: (op) => javaCliOp(op, dir, env), harvest };
}

afterAll(() => {
  if (javaWork) rmSync(javaWork, { recursive: true, force: true });
});

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
  let run: Runner;
  let harvest = () => undefined as void;
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
    if (lang === "ts") run = typescriptRunner(block, emulator.url, stack.workDir);
    else if (lang === "python") run = pythonRunner(block, emulator.url);
    else if (lang === "java") ({ run, harvest } = javaRunner(block, emulator.url, stack));
    else run = goRunner(block, emulator.url);
  }, 600_000);
  afterAll(async () => {
    harvest();
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
