/**
 * The one stack a campaign drives, on either path, with the real CLI:
 * - dynamic: the TypeScript program test/e2e/programs/agents.cjs, run inline
 *   through stack-op.mjs (test/e2e/support/stack.ts);
 * - native: a Pulumi YAML program written into its own directory and run
 *   with `pulumi` there, the plugin installed from its tarball
 *   (test/languages/support/stack-env.ts), as test/e2e/yaml-program.test.ts does.
 * Both answer the same `Outcome`, so steps and invariants do not know the path.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stackDir } from "../languages/support/stack-env";
import { e2eStack, exportedState } from "../e2e/support/stack";
import { pulumiCommands } from "../e2e/support/pulumi-command";
import { yamlProgramEnv } from "../e2e/support/yaml-language";
import type { AgentSpec, Operation } from "./steps";

export type CampaignPath = "dynamic" | "native";

/** What an operation did: its success, every line it printed, and (preview) whether it showed a change. */
export interface Outcome {
  ok: boolean;
  output: string;
  /** For a preview: any step other than `same`. */
  changed?: boolean;
}

export interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  /** Set by the engine on an agent a replace has made anew, until the old one is deleted. */
  delete?: boolean;
}

export interface StackState {
  /** The Agents in the checkpoint. */
  agents: ExportedResource[];
  /** The checkpoint's pending operations (creates a killed run left). */
  pending: { type: string; resource: ExportedResource & { inputs?: Record<string, unknown> } }[];
  /** The checkpoint as `pulumi stack export` printed it. */
  text: string;
}

export interface CampaignStack {
  readonly path: CampaignPath;
  readonly workDir: string;
  run(op: Operation, program: AgentSpec[]): Promise<Outcome>;
  /** Starts an up in its own process group, to be signalled midway. */
  startUp(program: AgentSpec[]): ChildProcess;
  state(): Promise<StackState>;
  /** `pulumi cancel` (a killed run's lock). */
  cancel(): Promise<Outcome>;
  /** `pulumi stack import` of an edited checkpoint. */
  importState(file: string): Promise<Outcome>;
  remove(): void;
}

/** The inputs the program gives an agent: its spec and the wait the campaign allows. */
export function agentInputs(agent: AgentSpec): Record<string, unknown> {
  const { resource: _resource, ...inputs } = agent;
  return { ...inputs, readyTimeoutSeconds: 3 };
}

export async function newCampaignStack(path: CampaignPath, label: string, service: { url: string; apiKey: string }): Promise<CampaignStack> {
  return path === "dynamic" ? dynamicStack(label, service) : nativeStack(label, service);
}

function dynamicStack(label: string, service: { url: string; apiKey: string }): CampaignStack {
  const stack = e2eStack(`campaign-${label}`, { baseUrl: service.url, apiKey: service.apiKey });
  const params = (program: AgentSpec[]) => ({ agents: program.map((a) => ({ resource: a.resource, args: agentInputs(a) })) });
  const outcome = async (run: () => Promise<{ ok: boolean; error?: string; engineOutput: string; changeSummary: Record<string, number> }>, preview = false): Promise<Outcome> => {
    try {
      const r = await run();
      const out = `${r.engineOutput}\n${r.error ?? ""}`;
      return preview ? { ok: r.ok, output: out, changed: Object.entries(r.changeSummary).some(([k, n]) => k !== "same" && n > 0) } : { ok: r.ok, output: out };
    } catch (error) {
      // stack-op's driver rejects an up that did something else to an agent than its preview showed.
      return { ok: false, output: `campaign: the driver rejected the operation: ${(error as Error).message}` };
    }
  };
  return {
    path: "dynamic",
    workDir: stack.workDir,
    run: (op, program) => outcome(() => stack.run(op, { params: params(program) }), op === "preview"),
    startUp: (program) => stack.start("up", { params: params(program) }),
    async state() {
      const exported = await exportedState(stack);
      return stateOf(exported as never, JSON.stringify(exported));
    },
    cancel: () => outcome(() => stack.run("cancel")),
    importState: (file) => outcome(() => stack.run("import-state", { stateFile: file })),
    remove: () => stack.remove(),
  };
}

async function nativeStack(label: string, service: { url: string; apiKey: string }): Promise<CampaignStack> {
  const dir = stackDir(`campaign-${label}`);
  const env = yamlProgramEnv(dir.env);
  const cli = pulumiCommands(() => ({ cwd: dir.workDir, env }));
  const write = (program: AgentSpec[]) => {
    const resources = Object.fromEntries(program.map((a) => [a.resource, { type: "agent-hosting:index:Agent", properties: agentInputs(a) }]));
    // JSON is YAML: the document is written as JSON.
    writeFileSync(join(dir.workDir, "Pulumi.yaml"), JSON.stringify({ name: `campaign-${label}`, runtime: "yaml", resources }, null, 2));
  };
  write([]);
  for (const args of [["stack", "init", "dev"], ["config", "set", "agent-hosting:baseUrl", service.url], ["config", "set", "--secret", "agent-hosting:apiKey", service.apiKey]]) {
    const r = await cli.run(...args);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${r.out}`);
  }
  const run = async (...args: string[]): Promise<Outcome> => {
    const r = await cli.run(...args);
    return { ok: r.code === 0, output: r.out };
  };
  return {
    path: "native",
    workDir: dir.workDir,
    async run(op, program) {
      write(program);
      if (op === "preview") {
        const r = await cli.run("preview", "--diff", "--expect-no-changes");
        const changed = r.code !== 0 && /no changes were expected/i.test(r.out);
        return { ok: r.code === 0 || changed, output: r.out, changed };
      }
      return run(op, "--yes", "--diff");
    },
    startUp(program) {
      write(program);
      return spawn("pulumi", ["up", "--yes", "--diff"], { cwd: dir.workDir, env, detached: true, stdio: "ignore" });
    },
    async state() {
      const r = await cli.run("stack", "export");
      if (r.code !== 0) throw new Error(`pulumi stack export failed:\n${r.out}`);
      return stateOf(JSON.parse(r.out) as never, r.out);
    },
    cancel: () => run("cancel", "--yes"),
    importState: (file) => run("stack", "import", "--file", file),
    remove: () => dir.remove(),
  };
}

function stateOf(exported: { deployment?: { resources?: ExportedResource[]; pending_operations?: StackState["pending"] } }, text: string): StackState {
  return {
    agents: (exported.deployment?.resources ?? []).filter((r) => r.type.endsWith(":Agent")),
    pending: exported.deployment?.pending_operations ?? [],
    text,
  };
}

/** Kills the processes whose working directory is `dir`: the plugins a killed CLI leaves running. */
export function killProcessesIn(dir: string): void {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === dir) process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone, or not ours to read
    }
  }
}

/** Removes the empty `.attrs` checkpoint sidecars under `dir`, as the README's failure table says after a killed up. */
export function removeEmptySidecars(dir: string): number {
  let removed = 0;
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const file = join(dir, entry);
    if (file.endsWith(".attrs") && statSync(file).size === 0) {
      rmSync(file);
      removed += 1;
    }
  }
  return removed;
}
