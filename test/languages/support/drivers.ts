/**
 * One driver per language: a program that runs one stack operation on an
 * inline program in that language, through that language's Automation API
 * and the real pulumi CLI, described by the same params. What a driver needs
 * (a Go build, a Python virtualenv) is made once and cached outside the
 * repository, keyed by a hash of what it is made from.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCRIPT, cachedVenv, cacheRoot, goProgram, sourceHash } from "../../support/project-scripts";
import { argvDriver, stackOpDriver, type StackDriver } from "../../support/stack-driver";

export const repoRoot = join(__dirname, "..", "..", "..");
/** The CLI these tests run (pulumi-cli.sh builds it); the Python and Go SDK packages match it. */
export const PULUMI_VERSION = "3.259.0";

export type { AgentParams, ProgramParams, StackConfig, StackOp } from "../../support/stack-driver";

export const goDriver: StackDriver = (() => {
  let binary: string | undefined;
  return {
    ...argvDriver("Go", () => {
      if (!binary) throw new Error("goDriver.prepare() first");
      return binary;
    }),
    exportedKeys: "camelCase",
    prepare() {
      binary = goProgram("lang-go", join(repoRoot, "test/languages/go"), [join(repoRoot, "sdk/go")]);
    },
  };
})();

/** A virtualenv with the pulumi package of the CLI's version and the generated SDK, made once per SDK content. */
function pythonVenv(): string {
  const dir = join(cacheRoot, "lang-python", `${PULUMI_VERSION}-${sourceHashOfPython()}`);
  return cachedVenv(dir, "lang-python", (python) => {
    // The SDK is installed from a copy: pip would write build files into sdk/python.
    const copy = mkdtempSync(join(tmpdir(), "agent-hosting-sdk-python-"));
    try {
      cpSync(join(repoRoot, "sdk/python"), copy, { recursive: true });
      execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `pulumi==${PULUMI_VERSION}`, copy], { stdio: "inherit" });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
}

/** Copies the Go driver's source files (test/languages/go's .go files, without its go.mod and go.sum) into `dir`. */
export function copyGoDriver(dir: string): void {
  const driver = join(repoRoot, "test/languages/go");
  for (const file of readdirSync(driver).filter((name) => name.endsWith(".go"))) copyFileSync(join(driver, file), join(dir, file));
}

/** The Python driver's files (stack_op.py and the modules it imports), copied into `dir` for a program outside the repository; the script's path. */
export function copyPythonDriver(dir: string): string {
  const driver = join(repoRoot, "test/languages/python");
  for (const file of readdirSync(driver).filter((name) => name.endsWith(".py"))) copyFileSync(join(driver, file), join(dir, file));
  return join(dir, "stack_op.py");
}

function sourceHashOfPython(): string {
  return sourceHash([join(repoRoot, "sdk/python")]);
}

export const pythonDriver: StackDriver & { prepare(): void } = (() => {
  let python: string | undefined;
  return {
    ...argvDriver(
      "Python",
      () => {
        if (!python) throw new Error("pythonDriver.prepare() first");
        return python;
      },
      () => [join(repoRoot, "test/languages/python/stack_op.py")],
    ),
    exportedKeys: "snake_case",
    prepare() {
      python = pythonVenv();
    },
  };
})();

export const nodeDriver: StackDriver = {
  ...stackOpDriver({ stackOp: SCRIPT.stackOp, project: "agent-hosting-node", program: join(repoRoot, "test/languages/node/native-agents.cjs"), cwd: repoRoot }),
  exportedKeys: "camelCase",
  prepare() {
    if (!existsSync(join(repoRoot, "dist/native/index.js"))) throw new Error("run `npm run build` first");
  },
};
