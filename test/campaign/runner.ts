/**
 * Runs one campaign case: a new emulator (on its own state file, so it can
 * restart mid-up), one stack on the case's path, the steps in order, and the
 * invariants (./invariants.ts) after every step; then a final destroy, which
 * must leave nothing. It stops at the first violation.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { REQUEST_LOG_SIZE } from "../../src/emulator/request-log";
import { newCampaignStack, type CampaignPath, type CampaignStack, type Outcome, type StackState } from "./campaign-stack";
import { failureSaysWhy, noKey, noTakeover, orphans, serviceAgents, tail, theEnd, truth, type Violation } from "./invariants";
import { runCompound } from "./compound-steps";
import { drainViolations, type OpenedSessions } from "./drain-check";
import { applyEdit, describeStep, type AgentSpec, type Step } from "./steps";

export type Rollout = "rolling" | "immediate";

/** A replayable case: what the JSON file of a minimal case holds. */
export interface CampaignCase {
  path: CampaignPath;
  rollout: Rollout;
  /** The seed the steps were drawn from (absent for a case written by hand or shrunk). */
  seed?: number;
  steps: Step[];
}

export interface CaseResult {
  /** The first violation, with the step (1-based; steps.length + 1: the final destroy) it followed. */
  violation?: Violation & { step: number; label: string };
  stepsRun: number;
  /** How many times each invariant was checked. */
  checks: Record<string, number>;
}

/** Everything a step can read and change: the service, the stack, the program, and what the campaign knows. */
export interface CampaignWorld {
  emu: Emu;
  readonly apiKey: string;
  stack: CampaignStack;
  program: AgentSpec[];
  /** Agents made outside Pulumi → the deployment they were made with. */
  foreign: Map<string, string>;
  /** Agents changed outside Pulumi since the stack last read them (refresh). */
  excused: Set<string>;
  /** Sessions the campaign opened, by agent, until a DELETE of the agent. */
  sessions: Map<string, OpenedSessions>;
  restartEmulator(): Promise<void>;
  log(line: string): void;
}

/** What a step did that the invariants judge: the operation it ran (if any) and how to read its success. */
export interface StepEffect {
  outcome?: Outcome;
  /** "up" (declared agents must exist), "refresh", "destroy", "failed-up-expected" (a broken input). */
  as?: "up" | "refresh" | "destroy" | "preview" | "broken";
  /** Agents this step's up may leave unlike the service without fault (an outside update landed after it). */
  excuse?: string[];
  /** Agents the step's operation declared beyond the program (a takeover attempt's): its failure may name them. */
  declared?: string[];
  /** The operation is the README's recovery after a killed up, which must succeed. */
  recovery?: boolean;
}

const API_KEY = "campaign-KEY-5e1f0c9a";

export async function runCase(c: CampaignCase, log: (line: string) => void = () => {}): Promise<CaseResult> {
  const dir = mkdtempSync(join(tmpdir(), "campaign-emu-"));
  const options = { apiKey: API_KEY, readyAfterMs: 400, rollout: c.rollout, stateFile: join(dir, "emulator.json") } as const;
  let emu = await startEmu(options);
  const port = emu.port;
  const checks: Record<string, number> = {};
  const stack = await newCampaignStack(c.path, `${c.path}-${c.rollout}`, { url: emu.url, apiKey: API_KEY });
  const world: CampaignWorld = {
    get emu() {
      return emu;
    },
    set emu(e) {
      emu = e;
    },
    apiKey: API_KEY,
    stack,
    program: [],
    foreign: new Map(),
    excused: new Set(),
    sessions: new Map(),
    async restartEmulator() {
      await emu.close();
      emu = await startEmu({ ...options, port });
    },
    log,
  };
  let stepsRun = 0;
  // The state before each step: what a delete during it drains for.
  let before: StackState = { agents: [], pending: [], text: "" };
  const judged = async (effect: StepEffect, startedMs: number, step?: Step): Promise<Violation | undefined> => {
    const { found, state } = await judge(world, effect, checks, { startedMs, before, restarted: step?.kind === "restart-up" });
    before = state;
    return found;
  };
  try {
    for (const [i, step] of c.steps.entries()) {
      const label = describeStep(step);
      log(`step ${i + 1}/${c.steps.length}: ${label}`);
      let found: Violation | undefined;
      const startedMs = Date.now();
      try {
        const effect = await runStep(world, step);
        if (effect.outcome) log(`  → ${effect.outcome.ok ? "ok" : `failed: ${firstError(effect.outcome.output)}`}`);
        if (effect.outcome && process.env["CAMPAIGN_VERBOSE"] === "1") log(`  output:\n${effect.outcome.output}`);
        found = await judged(effect, startedMs, step);
      } catch (error) {
        found = { invariant: "the CLI answers", detail: `the step threw: ${(error as Error).stack ?? String(error)}` };
      }
      stepsRun += 1;
      if (found) return { violation: { ...found, step: i + 1, label }, stepsRun, checks };
    }
    log("final: destroy");
    const startedMs = Date.now();
    const effect: StepEffect = { outcome: await stack.run("destroy", world.program), as: "destroy" };
    const found = await judged(effect, startedMs);
    if (found) return { violation: { ...found, step: c.steps.length + 1, label: "final destroy" }, stepsRun, checks };
    if (!effect.outcome?.ok) return { violation: { invariant: "the end", detail: `the final destroy failed:\n${tail(effect.outcome?.output ?? "")}`, step: c.steps.length + 1, label: "final destroy" }, stepsRun, checks };
    return { stepsRun, checks };
  } finally {
    await emu.close();
    stack.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first error line of an operation's output, for the campaign's log. */
const firstError = (output: string): string => (output.split("\n").find((l) => /error/i.test(l) && !/^\s*$/.test(l)) ?? "").trim().slice(0, 240);

async function runStep(world: CampaignWorld, step: Step): Promise<StepEffect> {
  const at = (resource: string) => world.program.findIndex((a) => a.resource === resource);
  switch (step.kind) {
    case "add":
      if (world.program.some((a) => a.serviceName === step.agent.serviceName || a.resource === step.agent.resource)) return {};
      world.program.push({ ...step.agent });
      return {};
    case "remove":
      if (at(step.resource) >= 0) world.program.splice(at(step.resource), 1);
      return {};
    case "edit": {
      const i = at(step.resource);
      if (i < 0) return {};
      const next = applyEdit(world.program[i] as AgentSpec, step.edit);
      if (next.serviceName !== world.program[i]?.serviceName && (world.program.some((a) => a.serviceName === next.serviceName) || world.foreign.has(next.serviceName))) return {};
      if (next.requiredSecrets && !next.secretSet) delete next.requiredSecrets;
      world.program[i] = next;
      return {};
    }
    case "op":
      return { outcome: await world.stack.run(step.op, world.program), as: step.op };
    default:
      return runCompound(world, step);
  }
}

/** What the drain check needs of a step: when it started, the state before it, and whether the emulator restarted (its request log then starts again). */
interface StepWindow {
  startedMs: number;
  before: StackState;
  restarted: boolean;
}

/** Checks the invariants after a step; the first violation, if any, and the state read. */
async function judge(world: CampaignWorld, effect: StepEffect, checks: Record<string, number>, window: StepWindow): Promise<{ found: Violation | undefined; state: StackState }> {
  const count = (name: string) => (checks[name] = (checks[name] ?? 0) + 1);
  await world.emu.control.clearFaults();
  await world.emu.control.setRateLimit({ disabled: true });
  const state = await world.stack.state();
  const service = await serviceAgents(world.emu);
  const foreignNames = new Set(world.foreign.keys());
  const found: Violation[] = [];
  const outcome = effect.outcome;
  const texts = [{ what: "the state", text: state.text }];
  if (outcome) texts.push({ what: "the CLI's output", text: outcome.output });
  found.push(...noKey(world.apiKey, texts));
  count("no key or credential");
  found.push(...noTakeover(state, service, world.foreign));
  count("no takeover");
  const names = [...world.program.flatMap((a) => [a.serviceName, a.resource]), ...state.agents.map((r) => String(r.id)), ...(effect.declared ?? [])];
  if (outcome && /^campaign: an up declaring .+, made outside Pulumi, succeeded/.test(outcome.output)) found.push({ invariant: "no takeover", detail: outcome.output });
  else if (outcome && !outcome.ok) {
    found.push(...failureSaysWhy(outcome, names));
    count("failures say why");
  }
  if (effect.as === "broken" && outcome?.ok) found.push({ invariant: "a broken input fails", detail: "an up with a broken input succeeded" });
  if (effect.recovery) {
    if (!outcome?.ok) found.push({ invariant: "the recovery recovers", detail: `the README's recovery after a killed up failed:\n${tail(outcome?.output ?? "")}` });
    count("the recovery recovers");
  }
  for (const name of effect.excuse ?? []) world.excused.add(name);
  if (outcome && (effect.as === "up" || effect.as === "broken" || effect.as === "refresh")) {
    if (outcome.ok && effect.as === "refresh") world.excused.clear();
    found.push(...truth(state, service, world.excused, !outcome.ok));
    count("state tells the truth");
    if (outcome.ok) {
      found.push(...orphans(effect.as === "up" ? world.program : undefined, state, service, foreignNames, world.excused));
      count("nothing orphaned");
    }
  }
  // A preview compares the program with the state and reads no agent, so outside changes (excused) never show in it.
  if (outcome?.ok && effect.as === "up" && found.length === 0) {
    const preview = await world.stack.run("preview", world.program);
    count("convergence");
    const marks = state.agents.filter((r) => r.outputs?.["__pending"] !== undefined).map((r) => `${String(r.id)}: __pending ${String(r.outputs?.["__pending"])}`);
    if (!preview.ok || preview.changed) found.push({ invariant: "convergence", detail: `the preview right after a successful up ${preview.ok ? "shows a change" : "failed"} (pending marks in the state: ${marks.join(", ") || "none"}):\n${tail(preview.output)}` });
    found.push(...noKey(world.apiKey, [{ what: "the convergence preview's output", text: preview.output }]));
  }
  if (outcome?.ok && effect.as === "destroy") {
    world.excused.clear();
    found.push(...theEnd(state, service, foreignNames));
    count("the end");
  }
  if (outcome && /the driver rejected the operation/.test(outcome.output) && !outcome.ok) found.push({ invariant: "the CLI answers", detail: tail(outcome.output) });
  if (outcome && !window.restarted) {
    const { requests } = await world.emu.control.requests();
    // A log that dropped records of this step (it keeps the last 1000) cannot show the drain's first read.
    const whole = requests.length < REQUEST_LOG_SIZE || (requests[0]?.receivedAtMs ?? 0) < window.startedMs;
    if (whole) {
      found.push(...drainViolations(requests.filter((r) => r.receivedAtMs >= window.startedMs), window.before, world.sessions));
      count("the drain");
    }
  }
  return { found: found[0], state };
}
