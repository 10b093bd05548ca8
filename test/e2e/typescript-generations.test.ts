/**
 * The published declarations in the TypeScript projects users have
 * (test/support/compat-matrix.ts's TYPESCRIPT_GENERATIONS, from the
 * `pulumi new typescript` templates of pulumi/templates): the packed tarball
 * (one per content, test/e2e/support/packed-install.ts) installed into each
 * template's project, strict and without skipLibCheck, with @pulumi/pulumi
 * at the peer range's floor and @types/node ^18 as npm installs it now. Each
 * project's own dependencies are installed once per versions under
 * ~/.cache/pulumi-agent-hosting/ts-projects/ and copied; only the tarball is
 * installed per run.
 *
 * In each, the README's TypeScript programs and docs/_index.md's TypeScript
 * blocks and a program naming every entry point compile; a wrong input type
 * (`enableNoise: "yes"`) is a compile error at that field. A project with
 * its own typescript runs `tsc --noEmit`. The 2023 project has none: the
 * Node.js language host then runs the program through the TypeScript 3.8.3
 * and ts-node 7.0.1 that @pulumi/pulumi vendors, type-checking the program's
 * own files. No language host binary exists here (CONTRIBUTING.md), so
 * test/e2e/programs/packed-runner.cjs registers ts-node exactly as the host's
 * cmd/run does and compiles the programs that way (op "typecheck"), then
 * runs the Quickstart's program so loaded inside an inline program of the
 * Automation API: its preview against the emulator. TypeScript 3.8.3 also
 * checks every published declaration the entry points reach. Finally
 * `require` and `import` of each entry point from a plain Node script.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as TS from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheRoot } from "../support/project-scripts";
import { startEmu } from "../support/emulator-fixture";
import { runForLastJsonLine } from "../support/stack-driver";
import {
  OLDEST_PULUMI,
  POLICY_SDK,
  templateTsconfig,
  TYPES_NODE,
  TYPESCRIPT_FLOOR,
  TYPESCRIPT_GENERATIONS,
  type TypeScriptGeneration,
} from "../support/compat-matrix";
import { codeBlocks } from "../support/readme-blocks";
import { copyPackedRunner, npm, offlineStackEnv, packedTarball, userEnvOnNode } from "./support/packed-install";
import { PROGRAM_LINE } from "./support/program-blocks";
import { repoRoot } from "./support/stack";

const API_KEY = "ts-generations-SECRET-5a1c";
const ENTRY_POINTS = ["pulumi-agent-hosting", "pulumi-agent-hosting/native", "pulumi-agent-hosting/policy", "pulumi-agent-hosting/provider-impl"];
/** Every entry point's declarations, as the published package.json points at them. */
const ENTRY_DECLARATIONS = Object.values(JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).exports as Record<string, { types?: string }>)
  .flatMap((e) => (typeof e === "object" && e.types ? [e.types.replace(/^\.\//, "")] : []));

/** The README's and docs/_index.md's TypeScript programs (blocks with imports), as files of the project. */
const PROGRAMS = [
  ...codeBlocks(join(repoRoot, "README.md")).map((b) => ({ ...b, file: `readme-${b.line}.ts` })),
  ...codeBlocks(join(repoRoot, "docs/_index.md")).map((b) => ({ ...b, file: `docs-${b.line}.ts` })),
].filter((b) => (b.lang === "ts" || b.lang === "typescript") && PROGRAM_LINE.test(b.code));
const QUICKSTART = PROGRAMS.find((b) => b.section === "Quickstart");

/** Names from every entry point but the policy pack's, each used with a type the package declares. */
const ENTRY_POINTS_PROGRAM = `import * as root from "pulumi-agent-hosting";
import * as native from "pulumi-agent-hosting/native";
import * as impl from "pulumi-agent-hosting/provider-impl";

export const query: root.AgentLogsQuery = { agentName: "bot", order: "asc", startTime: new Date(0) };
export const image = (a: root.ServiceAgent): unknown => (a.deployment && a.deployment.manifest && a.deployment.manifest.spec ? a.deployment.manifest.spec.image : undefined);
export const client: root.AgentHostingClient = new root.AgentHostingClient({ baseUrl: "http://127.0.0.1:1/v1", apiKey: "k" });
export const page = (r: root.GetAgentLogsResult): string[] => r.logs.map((e: root.LogEntry) => e.timestamp + " " + e.log);
export const pluginArgs: native.GetAgentLogsArgs = { agentName: "bot", startTime: 0 };
export const provider: object = impl.provider;
`;
/** The policy pack's entry point: its names, and @pulumi/policy's own declarations with them. */
const POLICY_PROGRAM = `import { createAgentPolicyPack, checkScalingRange } from "pulumi-agent-hosting/policy";
export const pack = createAgentPolicyPack;
export const scaling = checkScalingRange;
`;
/** A wrong input type: a compile error at `enableNoise`. */
const WRONG_PROGRAM = `import * as ah from "pulumi-agent-hosting";
export const bot = new ah.Agent("bot", { serviceName: "bot", image: "registry.example.com/bot:1", enableNoise: "yes" });
`;
const WRONG_AT = (() => {
  const [line, text] = [...WRONG_PROGRAM.split("\n").entries()].find(([, t]) => t.includes("enableNoise")) ?? [0, ""];
  return { line: line + 1, column: text.indexOf("enableNoise") + 1 };
})();

/** Every program each project compiles. */
const COMPILED = [...PROGRAMS.map((p) => p.file), "entry-points.ts", "policy-entry.ts", "wrong-input.ts"];

let workRoot: string;
let tarball: string;

beforeAll(() => {
  workRoot = mkdtempSync(join(tmpdir(), "agent-hosting-ts-generations-"));
  tarball = packedTarball();
}, 600_000);

afterAll(() => {
  if (workRoot) rmSync(workRoot, { recursive: true, force: true });
});

/** The template's package.json with pinned versions: what `npm install` gives a user of that template today. */
function projectPackage(g: TypeScriptGeneration): Record<string, unknown> {
  return {
    name: `ts-${g.name}`,
    main: "index.ts",
    private: true,
    devDependencies: { "@types/node": TYPES_NODE, ...(g.typescript ? { typescript: g.typescript } : {}) },
    dependencies: { "@pulumi/pulumi": OLDEST_PULUMI, "@pulumi/policy": POLICY_SDK },
  };
}

/** The project's dependencies, installed once per versions under ~/.cache/pulumi-agent-hosting/ts-projects/. */
function cachedProject(g: TypeScriptGeneration): string {
  const pkg = projectPackage(g);
  const dir = join(cacheRoot, "ts-projects", `${g.name}-${createHash("sha256").update(JSON.stringify(pkg)).digest("hex").slice(0, 16)}`);
  if (existsSync(join(dir, "node_modules", ".package-lock.json"))) return dir;
  const partial = `${dir}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, "package.json"), JSON.stringify(pkg, null, 2));
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], partial);
  if (existsSync(dir)) rmSync(partial, { recursive: true, force: true });
  else renameSync(partial, dir);
  return dir;
}

/** A project of the generation with the tarball installed, and the programs and the tsconfig.json of its template. */
function installedProject(g: TypeScriptGeneration): string {
  const dir = join(workRoot, g.name);
  execFileSync("cp", ["-a", cachedProject(g), dir]);
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], dir);
  for (const p of PROGRAMS) writeFileSync(join(dir, p.file), p.code);
  writeFileSync(join(dir, "entry-points.ts"), ENTRY_POINTS_PROGRAM);
  writeFileSync(join(dir, "policy-entry.ts"), POLICY_PROGRAM);
  writeFileSync(join(dir, "wrong-input.ts"), WRONG_PROGRAM);
  const tsconfig = (files: string[]) => JSON.stringify(templateTsconfig(g, files), null, 2);
  writeFileSync(join(dir, "tsconfig.json"), tsconfig(COMPILED));
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ts-${g.name}\nruntime: nodejs\n`);
  copyPackedRunner(dir);
  return dir;
}

/** Colour codes of tsc's output (the templates set `pretty`). */
// eslint-disable-next-line no-control-regex
const COLOURS = /\u001b\[[0-9;]*m/g;

/** The project's own `tsc`, its output without colours. */
function tsc(dir: string, args: string[]): { code: number; output: string } {
  const run = spawnSync(process.execPath, [join(dir, "node_modules/typescript/bin/tsc"), ...args], { cwd: dir, encoding: "utf8" });
  return { code: run.status ?? -1, output: `${run.stdout}${run.stderr}`.replace(COLOURS, "") };
}

/** packed-runner.cjs in the project (the engine's TypeScript). */
async function runner<T>(dir: string, op: string, params: Record<string, unknown>, env: NodeJS.ProcessEnv = userEnvOnNode()): Promise<T> {
  const run = await runForLastJsonLine<T>(process.execPath, [join(dir, "runner.cjs"), op, JSON.stringify(params)], { cwd: dir, env }, `runner ${op}`);
  return run.result;
}

it("the programs compiled here are the README's and docs/_index.md's TypeScript programs, the Quickstart among them", () => {
  expect(PROGRAMS.length).toBeGreaterThanOrEqual(3);
  expect(PROGRAMS.map((p) => p.file).filter((f) => f.startsWith("docs-")).length).toBeGreaterThanOrEqual(1);
  expect(QUICKSTART).toBeDefined();
});

describe.each(TYPESCRIPT_GENERATIONS.filter((g) => g.typescript !== undefined))("the $name project: $label", (g) => {
  let dir: string;
  beforeAll(() => {
    dir = installedProject(g);
  }, 600_000);

  // One run of tsc over every program: a full check of the libraries' declarations takes most of its time.
  it(`tsc ${g.typescript}, without skipLibCheck: the README's and docs' programs and every entry point compile; the wrong input fails at its field`, () => {
    expect(tsc(dir, ["--version"]).output.trim()).toBe(`Version ${g.typescript}`);
    const { code, output } = tsc(dir, ["--noEmit", "-p", "tsconfig.json"]);
    expect(code).not.toBe(0);
    const errors = [...output.matchAll(/^(\S+):(\d+):(\d+) - error (TS\d+)/gm)].map((m) => (m[1] === "wrong-input.ts" ? `${m[1]}:${m[2]}:${m[3]} ${m[4]}` : (m[1] ?? "")));
    // @pulumi/policy's index.d.ts re-exports names its proxy.d.ts does not declare, whatever the TypeScript: its own defect.
    expect(new Set(errors)).toEqual(new Set([`wrong-input.ts:${WRONG_AT.line}:${WRONG_AT.column} TS2322`, "node_modules/@pulumi/policy/index.d.ts"]));
    expect(errors.filter((e) => e.startsWith("wrong-input.ts"))).toHaveLength(1);
    expect(output).toContain("The expected type comes from property 'enableNoise'");
  });
});

describe.each(TYPESCRIPT_GENERATIONS.filter((g) => g.typescript === undefined))("the $name project: $label", (g) => {
  let dir: string;
  beforeAll(() => {
    dir = installedProject(g);
  }, 600_000);

  it("has no typescript and no ts-node of its own: the engine's vendored ones run the program", () => {
    const resolve = (m: string) => spawnSync(process.execPath, ["-e", `require.resolve(${JSON.stringify(m)})`], { cwd: dir }).status;
    expect(resolve("typescript")).not.toBe(0);
    expect(resolve("ts-node")).not.toBe(0);
  });

  it("the engine's TypeScript 3.8.3 (ts-node 7) compiles the README's and docs' programs and every entry point; the wrong input fails at its field", async () => {
    const checked = await runner<{ typescript: string; tsnode: string; results: Record<string, string | null> }>(dir, "typecheck", { files: COMPILED });
    expect(checked.typescript).toBe("3.8.3");
    expect(checked.tsnode).toContain("vendor/ts-node@7.0.1");
    const { "wrong-input.ts": wrong, ...rest } = checked.results;
    expect(rest).toEqual(Object.fromEntries(COMPILED.filter((f) => f !== "wrong-input.ts").map((f) => [f, null])));
    // TypeScript 3.8's one-line message, as ts-node 7 and so the engine print it, gives the field's line and column and the
    // type it expects; the field's name is in the diagnostic's related note, which ts-node 7 does not print.
    expect(wrong).toContain(
      `wrong-input.ts(${WRONG_AT.line},${WRONG_AT.column}): error TS2322: Type 'string' is not assignable to type 'boolean | Promise<boolean> | OutputInstance<boolean> | undefined'`,
    );
  });

  it("TypeScript 3.8.3 reports nothing in any declaration the entry points reach, nor in the programs", () => {
    const ts = createRequire(join(dir, "package.json"))("@pulumi/pulumi/vendor/typescript@3.8.3/typescript.js") as typeof TS;
    const parsed = ts.getParsedCommandLineOfConfigFile(join(dir, "tsconfig.json"), { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    const roots = [...(parsed?.fileNames ?? []).filter((f) => !f.endsWith("wrong-input.ts")), ...ENTRY_DECLARATIONS.map((d) => join(dir, "node_modules/pulumi-agent-hosting", d))];
    const program = ts.createProgram(roots, parsed?.options ?? {});
    const reached = program.getSourceFiles().map((f) => f.fileName);
    expect(reached.filter((f) => /\/node_modules\/(zod|undici)\//.test(f))).toEqual([]);
    const ours = program.getSourceFiles().filter((f) => f.fileName.includes("/node_modules/pulumi-agent-hosting/") || !f.fileName.includes("/node_modules/"));
    expect(ours.filter((f) => f.fileName.includes("/pulumi-agent-hosting/dist/client/answer-types.d.ts"))).toHaveLength(1);
    const problems = ours.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]);
    expect(problems.map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`)).toEqual([]);
    // No published declaration names zod, reached or not (the client's transport, which no entry point reaches, names undici's types).
    const published = execFileSync("find", [join(dir, "node_modules/pulumi-agent-hosting/dist"), "-name", "*.d.ts"], { encoding: "utf8" }).trim().split("\n");
    expect(published.filter((f) => /from "zod"|import\("zod"\)/.test(readFileSync(f, "utf8")))).toEqual([]);
  });

  it("the Quickstart's program, loaded as the engine loads it, previews against the emulator", async () => {
    const emulator = await startEmu({ apiKey: API_KEY, readyAfterMs: 300 });
    try {
      writeFileSync(join(dir, "index.ts"), QUICKSTART?.code ?? "");
      const params = { baseUrl: emulator.url, apiKey: API_KEY, programFile: "index.ts", engineTypeScript: true };
      const preview = await runner<{ ok: boolean; error?: string; changeSummary: Record<string, number>; engineTypeScript?: string }>(dir, "preview", params, offlineStackEnv(dir, userEnvOnNode()));
      expect(preview.error).toBeUndefined();
      expect(preview.engineTypeScript).toBe("3.8.3");
      expect(preview.changeSummary).toEqual({ create: 2 }); // the stack and the agent
    } finally {
      await emulator.close();
    }
  });
});

describe("a plain Node script", () => {
  /** Each entry point's exported names as `require` gives them, and as `import` gives them (named, and the default's). */
  let required: Record<string, string[]>;
  let imported: Record<string, { named: string[]; module: string[] }>;
  beforeAll(() => {
    const g = TYPESCRIPT_GENERATIONS.find((x) => x.typescript === TYPESCRIPT_FLOOR) ?? TYPESCRIPT_GENERATIONS[0];
    if (!g) throw new Error("no TypeScript generation");
    const dir = join(workRoot, g.name);
    if (!existsSync(dir)) installedProject(g);
    // One script of each module type loads every entry point in turn: Node's loading of one is independent of the others'.
    const run = <T>(script: string, type: "commonjs" | "module") =>
      JSON.parse(execFileSync(process.execPath, ["--input-type", type, "-e", script], { cwd: dir, encoding: "utf8" })) as T;
    const entries = JSON.stringify(ENTRY_POINTS);
    required = run(`const out = {}; for (const e of ${entries}) out[e] = Object.keys(require(e)).sort(); console.log(JSON.stringify(out))`, "commonjs");
    imported = run(
      `const out = {}; for (const e of ${entries}) { const m = await import(e); out[e] = { named: Object.keys(m), module: Object.keys(m.default).sort() }; } console.log(JSON.stringify(out))`,
      "module",
    );
  }, 600_000);

  /** A name each entry point exports. */
  const EXPORTED: Record<string, string> = {
    "pulumi-agent-hosting": "Agent",
    "pulumi-agent-hosting/native": "Provider",
    "pulumi-agent-hosting/policy": "createAgentPolicyPack",
    "pulumi-agent-hosting/provider-impl": "provider",
  };

  it.each(ENTRY_POINTS)("requires and imports %s", (entry) => {
    const cjs = required[entry];
    const esm = imported[entry];
    expect(cjs).toContain(EXPORTED[entry]);
    expect(esm?.module).toEqual(cjs); // the CommonJS module as import's default
    expect(esm?.named).toContain(EXPORTED[entry]); // and its name as a named export, as Node finds it
  });
});
