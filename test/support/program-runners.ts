/**
 * Running a whole program's text (a README block, an example of the package
 * schema) as users run it, on a stack of test/languages/support/stack-env.ts,
 * through each language's Automation API (no language host binary exists
 * here): TypeScript transpiled and loaded inside stack-op.mjs's inline
 * program; Python exec'd as __main__ inside the Python driver's inline
 * program; Go with its `func main() { pulumi.Run(f) }` turned into
 * `func init() { readmeProgram = pulumi.RunFunc(f) }`, built beside the Go
 * language driver, which runs it. Each is that language's driver
 * (test/support/stack-driver.ts) with the program fixed (`withProgram`).
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { SCRIPT, cacheRoot, goProgram, sourceHash } from "./project-scripts";
import { copyGoDriver, pythonDriver, repoRoot, type StackConfig } from "../languages/support/drivers";
import { argvDriver, stackOpDriver, withProgram, type StackDriver } from "./stack-driver";

/** The project names of the Python and Go drivers' stacks (a program's own config keys are under them). */
export const PYTHON_PROJECT = "agent-hosting-python";
export const GO_PROJECT = "agent-hosting-go";

/** A TypeScript program: transpiled to CommonJS into `dir` and required inside stack-op.mjs's inline program of `project`. */
export function typescriptRunner(code: string, dir: string, project: string, config: StackConfig): StackDriver {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  writeFileSync(join(dir, "program-source.js"), js);
  // Required afresh inside the program, so its resources register in the run; its exports are the stack's outputs.
  writeFileSync(
    join(dir, "program.cjs"),
    `module.exports = () => {
  delete require.cache[require.resolve("./program-source.js")];
  const { __esModule, ...outputs } = require("./program-source.js");
  return outputs;
};
`,
  );
  return withProgram(stackOpDriver({ stackOp: SCRIPT.stackOp, project, program: join(dir, "program.cjs"), cwd: repoRoot }), { config });
}

/** A Python program, run as __main__ by the Python driver (project PYTHON_PROJECT). */
export function pythonRunner(code: string, config: StackConfig): StackDriver {
  pythonDriver.prepare();
  return withProgram(pythonDriver, { config, source: code });
}

/**
 * A Go program's text as a file beside the Go driver (test/languages/go/main.go):
 * its `func main() { pulumi.Run(f) }` becomes `func init() { readmeProgram = pulumi.RunFunc(f) }`.
 */
export function asGoDriverProgram(code: string, label: string): string {
  const program = code.replace(/^func main\(\) \{\n\tpulumi\.Run\(/m, "func init() {\n\treadmeProgram = pulumi.RunFunc(");
  if (!program.includes("readmeProgram = pulumi.RunFunc(")) throw new Error(`the Go program (${label}) has no \`func main() {\\n\\tpulumi.Run(\``);
  return program;
}

/**
 * sdk/go copied to a directory named by its content, once: the go.mod of a
 * program built against it names that directory, so the program's source,
 * and the build goProgram caches by it, is the same in every clone of the
 * repository (a go.mod naming the clone's own sdk/go made each fresh clone
 * build every Go program again).
 */
function goSdkByContent(): string {
  const sdk = join(repoRoot, "sdk/go");
  const dir = join(cacheRoot, "go-sdk", sourceHash([sdk]));
  if (existsSync(join(dir, "go.mod"))) return dir;
  const partial = `${dir}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(sdk, partial, { recursive: true });
  renameIntoPlace(partial, dir, join(dir, "go.mod"));
  return dir;
}

/** Renames `partial` to `dir`; when another process made `dir` first (`complete` exists), drops `partial`. */
function renameIntoPlace(partial: string, dir: string, complete: string): void {
  try {
    renameSync(partial, dir);
  } catch (error) {
    if (!existsSync(complete)) throw error;
    rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * A Go program: its `func main() { pulumi.Run(f) }` becomes the Go driver's
 * readmeProgram, built beside it (project GO_PROJECT) once per content of the
 * program, the driver and sdk/go, into the cache outside the repository.
 */
export function goRunner(code: string, config: StackConfig, label: string): StackDriver {
  const program = asGoDriverProgram(code, label);
  const driver = join(repoRoot, "test/languages/go");
  const sdk = goSdkByContent();
  const source = join(cacheRoot, `${label}-src`, createHash("sha256").update(sourceHash([driver])).update(sdk).update(program).digest("hex").slice(0, 16));
  if (!existsSync(join(source, "readme_program.go"))) {
    // Written under another name and renamed, so a process building the same source never reads a file half written.
    const partial = `${source}.${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    copyGoDriver(partial);
    for (const file of ["go.mod", "go.sum"]) cpSync(join(driver, file), join(partial, file));
    const mod = readFileSync(join(partial, "go.mod"), "utf8").replace("=> ../../../sdk/go", `=> ${sdk}`);
    writeFileSync(join(partial, "go.mod"), mod);
    writeFileSync(join(partial, "readme_program.go"), program);
    renameIntoPlace(partial, source, join(source, "readme_program.go"));
  }
  // The source names sdk's directory, itself named by its content: the source's hash covers both.
  const binary = goProgram(label, source);
  return withProgram(argvDriver("Go", () => binary), { config });
}
