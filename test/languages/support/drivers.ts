/**
 * One driver per language: a program that runs one stack operation on an
 * inline program in that language, through that language's Automation API
 * and the real pulumi CLI, described by the same params. What a driver needs
 * (a Go build, a Python virtualenv) is made once and cached outside the
 * repository, keyed by a hash of what it is made from.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCRIPT, cachedVenv, cacheRoot, goProgram, sourceHash } from "../../support/project-scripts";
import { runDriver, type OpResult } from "./run";

export const repoRoot = join(__dirname, "..", "..", "..");
/** The CLI these tests run (pulumi-cli.sh builds it); the Python and Go SDK packages match it. */
export const PULUMI_VERSION = "3.259.0";

export type StackConfig = Record<string, { value: string; secret?: boolean }>;

export interface AgentParams {
  /** The resource's name in the program. */
  name: string;
  serviceName: string;
  image: string;
  enableNoise?: boolean;
  secretSet?: string;
  autoScaling?: { minAgents: number; maxAgents: number };
  /** Seconds to wait for readiness; past it the step fails and the agent stays in state. */
  readyTimeoutSeconds?: number;
  /** A key of `providers`; the default provider when left out. */
  provider?: string;
  /** Adopt this existing agent (the `import` resource option). */
  import?: string;
  /** Export `<name>.logCount` and `<name>.secretFields` from the Output-form functions, with arguments from this agent. */
  reads?: boolean;
}

export interface ProgramParams {
  config?: StackConfig;
  providers?: Record<string, { apiKey: string; baseUrl: string }>;
  agents?: AgentParams[];
  /** Names for getSecretSet; each result is exported as `secretSet.<name>`. */
  secretSets?: string[];
  /** A whole program's text instead of the described one (Python only: a README block). */
  source?: string;
}

export type StackOp = "up" | "preview" | "refresh" | "destroy";

export interface LanguageDriver {
  language: string;
  /**
   * How the keys of an exported object of a schema type (the Agent's
   * manifest) are named in the stack's outputs: Python's SDK exports its
   * output types under their Python (snake_case) names.
   */
  exportedKeys: "camelCase" | "snake_case";
  /** Builds or installs what the driver needs (cached); returns nothing when ready. */
  prepare(): void;
  run(op: StackOp, workDir: string, params: ProgramParams, env: NodeJS.ProcessEnv): Promise<OpResult>;
}

export const goDriver: LanguageDriver = (() => {
  let binary: string | undefined;
  return {
    language: "Go",
    exportedKeys: "camelCase",
    prepare() {
      binary = goProgram("lang-go", join(repoRoot, "test/languages/go"), [join(repoRoot, "sdk/go")]);
    },
    run(op, workDir, params, env) {
      if (!binary) throw new Error("goDriver.prepare() first");
      return runDriver(binary, [op, workDir, JSON.stringify(params)], env, workDir);
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

function sourceHashOfPython(): string {
  return sourceHash([join(repoRoot, "sdk/python")]);
}

export const pythonDriver: LanguageDriver = (() => {
  let python: string | undefined;
  return {
    language: "Python",
    exportedKeys: "snake_case",
    prepare() {
      python = pythonVenv();
    },
    run(op, workDir, params, env) {
      if (!python) throw new Error("pythonDriver.prepare() first");
      const script = join(repoRoot, "test/languages/python/stack_op.py");
      return runDriver(python, [script, op, workDir, JSON.stringify(params)], env, workDir);
    },
  };
})();

export const nodeDriver: LanguageDriver = {
  language: "TypeScript",
  exportedKeys: "camelCase",
  prepare() {
    if (!existsSync(join(repoRoot, "dist/native/index.js"))) throw new Error("run `npm run build` first");
  },
  async run(op, workDir, params, env) {
    const { config = {}, ...program } = params;
    const args = [
      SCRIPT.stackOp,
      op,
      "--work-dir",
      workDir,
      "--project",
      "agent-hosting-node",
      "--program",
      join(repoRoot, "test/languages/node/native-agents.cjs"),
      "--params",
      JSON.stringify(program),
      "--config",
      JSON.stringify(config),
    ];
    const result = await runDriver(process.execPath, args, env, repoRoot);
    return { ...result, op };
  },
};
