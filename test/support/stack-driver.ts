/**
 * The one protocol of the stack drivers, and the one interface the tests
 * talk to them through (`StackDriver`: every stack operation of the CLI a
 * test runs, in any language, answers with the one `OpResult`). A driver
 * runs one operation on one stack of a program in its language, through
 * that language's Automation API or the real pulumi CLI in the program's
 * directory:
 *
 * | driver | language | how it is run |
 * | --- | --- | --- |
 * | `stack-op.mjs` (`stackOpDriver`, `SCRIPT.stackOp`) | TypeScript | `node stack-op.mjs <op> --work-dir DIR --project NAME --program FILE [--params JSON] [--config JSON]` |
 * | `test/languages/go/main.go` (`argvDriver`) | Go | `<binary> <op> <work-dir> <params JSON>` |
 * | `test/languages/python/stack_op.py` (`argvDriver`) | Python | `python stack_op.py <op> <work-dir> <params JSON>` |
 * | `test/e2e/support/java-cli-op.ts` (`javaCliDriver`) | Java | `pulumi <op> --json` in the program's directory, read back into the same answer |
 * | `test/e2e/support/new-stack-lifecycle.ts` (`cliDriver`) | YAML, Java | the CLI's commands in the program's directory, its summary lines read back |
 * | `test/e2e/programs/packed-runner.cjs` (`runForLastJsonLine`) | TypeScript, from an installed tarball | `node runner.cjs <op> <params JSON>` in a program directory outside the repository (its own request: the user's project and program) |
 *
 * The request is the operation (`StackOp`) and the program's `ProgramParams`
 * (a program described by its agents, or a whole program's `source`, and the
 * stack's config); the stack's backend, passphrase and PULUMI_HOME come from
 * the environment. The answer is the last line of the driver's stdout, one
 * JSON `OperationSummary`; the engine's own output is on stderr. Every
 * driver's `up` previews first, as `pulumi up` does (stack-op.mjs and the
 * Python and Go drivers run `pulumi up` with its own preview; the others
 * `pulumi preview`, then the update), and reports what each did
 * to every agent in `agentOperations` and the preview's change summary in
 * `previewChangeSummary`; an `up` that does something else to an
 * agent than its preview showed fails the run here, whatever the test expects.
 *
 * stack-op.mjs knows more operations than the four every driver knows
 * (`TYPESCRIPT_ONLY_OPS`); test/e2e/support/stack.ts runs those on a stack
 * of its own (`StackHandle`: stack-op.mjs bound to one stack, with its
 * options), with the same answer and the optional fields they fill.
 * `withProgram` fixes a driver's program (a README block, a schema
 * example), so a test holds a driver and a stack and nothing else. Every driver process, the packed runner's
 * included, is run and read by `runForLastJsonLine` below; only a stack
 * operation started to be killed midway (`StackHandle.start`) is spawned
 * on its own, since it answers nothing. `node stack-op.mjs` runs on a
 * stack-op host (test/support/stack-op-hosts.ts): the same script, already
 * loaded, with the same environment, directory and answer.
 */
import { spawn } from "node:child_process";
import { SCRIPT, disagreementMessage, operationDisagreements, type AgentOperations } from "./project-scripts";
import { runOnHost, type HostedRun } from "./stack-op-hosts";

/** The operations every driver runs. */
export const STACK_OPS = ["up", "preview", "refresh", "destroy"] as const;
export type StackOp = (typeof STACK_OPS)[number];

/** The operations only stack-op.mjs runs (test/e2e/support/stack.ts). */
export const TYPESCRIPT_ONLY_OPS = ["up-json", "preview-json", "refresh-json", "export", "import-state", "output-json", "outputs", "cancel"] as const;
export type TypeScriptOnlyOp = (typeof TYPESCRIPT_ONLY_OPS)[number];

// ---- The request ----

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
  /** A whole program's text instead of the described one (Python and Go drivers: a README block). */
  source?: string;
}

// ---- The answer ----

/** What every driver reports of an operation: the last line of its stdout. */
export interface OperationSummary {
  ok: boolean;
  op: string;
  changeSummary: Record<string, number>;
  outputs: Record<string, unknown>;
  error?: string;
  /** For `up`: what its preview and its update did to each agent. */
  agentOperations?: { preview?: AgentOperations; update?: AgentOperations };
  /** For `up`: the change summary of the preview it ran first (absent when that preview failed). */
  previewChangeSummary?: Record<string, number>;
}

/** The answer of every driver: the summary, the engine's output, and what stack-op.mjs's own operations add. */
export interface OpResult extends OperationSummary {
  /** The engine's own output (progress and diagnostics). */
  engineOutput: string;
  /** stack-op.mjs's exit code (test/e2e/support/stack.ts). */
  exitCode?: number | null;
  /** What `pulumi stack export` printed (op "export"; "output-json": the outputs' document). */
  deployment?: { deployment?: { resources?: Record<string, unknown>[] } } & Record<string, unknown>;
  /** The document `pulumi preview --json` printed (op "preview-json"). */
  preview?: Record<string, unknown>;
  /** What `pulumi up --json` printed (op "up-json"): the preview digest, then one engine event per line. */
  upJson?: string;
}

// ---- The interface ----

/** Where a driver runs an operation: the stack's work directory and environment. */
export interface DriverStack {
  workDir: string;
  env: NodeJS.ProcessEnv;
}

export interface StackDriver {
  /** The driver's language, as test names show it. */
  readonly language: string;
  run(op: StackOp, stack: DriverStack, params?: ProgramParams): Promise<OpResult>;
  /** Builds or installs what the driver needs (cached), before its first run; throws when it cannot. */
  prepare?(): void;
  /**
   * How the keys of an exported object of a schema type (the Agent's
   * manifest) are named in the stack's outputs: Python's SDK exports its
   * output types under their Python (snake_case) names. camelCase when left out.
   */
  readonly exportedKeys?: "camelCase" | "snake_case";
}

/** `driver` with its program fixed: every run gets `params`, whatever it is given. */
export function withProgram(driver: StackDriver, params: ProgramParams): StackDriver {
  return { ...driver, run: (op, stack) => driver.run(op, stack, params) };
}

/**
 * A driver that takes `<op> <work-dir> <params JSON>` after `prefix` (the Go
 * binary; the Python interpreter and stack_op.py), run in the work directory.
 */
export function argvDriver(language: string, command: () => string, prefix: () => string[] = () => []): StackDriver {
  return {
    language,
    run: (op, stack, params = {}) => runDriver(command(), [...prefix(), op, stack.workDir, JSON.stringify(params)], stack.env, stack.workDir),
  };
}

/**
 * stack-op.mjs on an inline program: `program` is a CommonJS module exporting
 * the program's function (it receives the params, less their config), under
 * project `project`; run from `cwd` (default: the repository).
 */
export function stackOpDriver(settings: { stackOp: string; project: string; program: string; cwd: string }): StackDriver {
  return {
    language: "TypeScript",
    async run(op, stack, params = {}) {
      const { config = {}, ...program } = params;
      const args = [settings.stackOp, op, "--work-dir", stack.workDir, "--project", settings.project, "--program", settings.program];
      args.push("--params", JSON.stringify(program), "--config", JSON.stringify(config));
      const result = await runDriver(process.execPath, args, stack.env, settings.cwd);
      return { ...result, op };
    },
  };
}

// ---- Running a driver process ----

/** Runs a driver process and reads its answer into an OpResult (the engine's output from both streams). */
export async function runDriver(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<OpResult> {
  const what = `${command} ${args.find((a) => (STACK_OPS as readonly string[]).includes(a)) ?? args[0] ?? ""}`;
  const { result: parsed, stderr } = await runForLastJsonLine<Partial<OpResult>>(command, args, { cwd, env }, what);
  return {
    ok: parsed.ok === true,
    op: parsed.op ?? args[0] ?? "",
    changeSummary: parsed.changeSummary ?? {},
    outputs: parsed.outputs ?? {},
    ...(parsed.error ? { error: parsed.error } : {}),
    ...(parsed.agentOperations ? { agentOperations: parsed.agentOperations } : {}),
    ...(parsed.previewChangeSummary ? { previewChangeSummary: parsed.previewChangeSummary } : {}),
    engineOutput: `${parsed.engineOutput ?? ""}${stderr}`,
  };
}

export interface DriverRun<T> {
  /** The parsed last line of stdout. */
  result: T;
  stderr: string;
  exitCode: number | null;
}

/**
 * Runs `command args` and parses its last stdout line; rejects, with both
 * streams, when that is not JSON, and when an `up` did something else to an
 * agent than its preview showed (whatever the test expects of the up).
 */
export async function runForLastJsonLine<T>(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }, what: string): Promise<DriverRun<T>> {
  const run = command === process.execPath && args[0] === SCRIPT.stackOp ? await runOnHost(args.slice(1), options) : await runProcess(command, args, options);
  const { stdout, stderr, exitCode } = run;
  let result: T;
  try {
    result = JSON.parse(stdout.trim().split("\n").pop() ?? "") as T;
  } catch {
    throw new Error(`${what} printed no result (exit ${exitCode}):\n${stdout}\n${stderr}`);
  }
  const summary = result as Partial<OperationSummary> | null;
  const ops = summary?.agentOperations;
  const disagreement = ops && disagreementMessage(operationDisagreements(ops.preview ?? {}, ops.update ?? {}, summary?.ok === true));
  if (disagreement) throw new Error(`${what}: ${disagreement}\n${stderr}`);
  return { result, stderr, exitCode };
}

/** Runs `command args` to its end, with both streams. */
function runProcess(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<HostedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (exitCode) => resolve({ stdout, stderr, exitCode }));
  });
}
