/**
 * Runs stack-op.mjs (the real pulumi CLI through the Automation API)
 * as a child process, outside vitest's module transform, as a user's program
 * runs. Each stack lives in its own directory under .e2e-work/. A
 * `StackHandle` is stack-op.mjs, the TypeScript driver of
 * test/support/stack-driver.ts, bound to one stack of an inline program,
 * with the options and operations only it has; it answers the drivers' one
 * `OpResult`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { runForLastJsonLine, type OpResult, type StackOp, type TypeScriptOnlyOp } from "../../support/stack-driver";
import { SCRIPT } from "../../support/project-scripts";

export const repoRoot = resolve(__dirname, "../../..");
const stackOp = SCRIPT.stackOp;

export type { OpResult } from "../../support/stack-driver";

/** What stack-op.mjs runs on a stack: every driver's operations and its own. */
export type StackHandleOp = StackOp | TypeScriptOnlyOp;

export interface RunOptions {
  params?: unknown;
  parallel?: number;
  refresh?: boolean;
  clearPendingCreates?: boolean;
  env?: Record<string, string>;
  /** A preview in the CLI's default display rather than with --diff. */
  noDiff?: boolean;
  /** Extra flags of `pulumi preview` for op "preview-json", e.g. `--show-sames`. */
  previewArgs?: string[];
  /** For op "import-state": the edited export to import. */
  stateFile?: string;
  /** Policy pack directories (`--policy-pack`) for preview and up, and their config files (`--policy-pack-config`). */
  policyPacks?: string[];
  policyPackConfigs?: string[];
}

export interface StackHandle {
  workDir: string;
  stack: string;
  run(op: StackHandleOp, options?: RunOptions): Promise<OpResult>;
  /** Starts an operation in its own process group and returns it, for tests that kill it midway. */
  start(op: StackHandleOp, options?: RunOptions): ChildProcess;
  remove(): void;
}

export function e2eStack(
  name: string,
  settings: { baseUrl: string; apiKey: string; program?: string; config?: Record<string, { value: string; secret?: boolean }> },
): StackHandle {
  const workDir = join(repoRoot, ".e2e-work", `${name}-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(workDir, { recursive: true });
  const config = settings.config ?? {
    "agent-hosting:baseUrl": { value: settings.baseUrl },
    "agent-hosting:apiKey": { value: settings.apiKey, secret: true },
  };
  const program = settings.program ?? join(repoRoot, "test/e2e/programs/agents.cjs");
  const opArgs = (op: string, options: RunOptions) => {
    const args = [stackOp, op, "--work-dir", workDir, "--program", program, "--config", JSON.stringify(config)];
    if (options.params !== undefined) args.push("--params", JSON.stringify(options.params));
    if (options.parallel !== undefined) args.push("--parallel", String(options.parallel));
    if (options.refresh) args.push("--refresh");
    if (options.clearPendingCreates) args.push("--clear-pending-creates");
    if (options.noDiff) args.push("--no-diff");
    for (const flag of options.previewArgs ?? []) args.push(`--preview-arg=${flag}`);
    if (options.stateFile) args.push("--state-file", options.stateFile);
    for (const dir of options.policyPacks ?? []) args.push(`--policy-pack=${dir}`);
    for (const file of options.policyPackConfigs ?? []) args.push(`--policy-pack-config=${file}`);
    return args;
  };
  return {
    workDir,
    stack: "dev",
    run(op, options = {}) {
      return runNode(opArgs(op, options), options.env ?? {});
    },
    start(op, options = {}) {
      return spawn(process.execPath, opArgs(op, options), {
        cwd: repoRoot,
        env: { ...process.env, ...(options.env ?? {}) },
        detached: true,
        stdio: "ignore",
      });
    },
    remove() {
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** What `pulumi stack export` printed for the stack: the checkpoint and its resources. */
export type ExportedState = NonNullable<OpResult["deployment"]>;

/**
 * The stack's state, as `pulumi stack export` prints it. A stack whose state
 * holds no resource exports fine (that is "nothing in the state"); an export
 * that fails, or prints no checkpoint, is an error here, never an empty state.
 */
export async function exportedState(stack: StackHandle): Promise<ExportedState> {
  const exported = await stack.run("export");
  if (!exported.ok) throw new Error(`pulumi stack export failed for ${stack.workDir}: ${exported.error ?? "no error text"}\n${exported.engineOutput}`);
  if (!exported.deployment?.deployment) throw new Error(`pulumi stack export printed no checkpoint for ${stack.workDir}: ${JSON.stringify(exported.deployment)}`);
  return exported.deployment;
}

async function runNode(args: string[], env: Record<string, string>): Promise<OpResult> {
  const run = await runForLastJsonLine<Omit<OpResult, "engineOutput" | "exitCode">>(
    process.execPath,
    args,
    { cwd: repoRoot, env: { ...process.env, ...env } },
    `stack-op ${args[1]}`,
  );
  const parsed = run.result;
  return { ...parsed, changeSummary: parsed.changeSummary ?? {}, outputs: parsed.outputs ?? {}, engineOutput: run.stderr, exitCode: run.exitCode };
}
