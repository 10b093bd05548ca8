/**
 * The invariants a campaign checks after every step. Each check returns the
 * violations it finds (empty: it holds); `Violation.invariant` is the name
 * shrinking keeps constant while it removes steps.
 */
import type { Emu } from "../support/emulator-fixture";
import type { ExportedResource, Outcome, StackState } from "./campaign-stack";
import type { AgentSpec } from "./steps";

export type InvariantName =
  | "nothing orphaned"
  | "no takeover"
  | "state tells the truth"
  | "convergence"
  | "failures say why"
  | "no key or credential"
  | "the end"
  | "a broken input fails"
  | "the recovery recovers"
  | "the drain"
  | "the CLI answers";

export interface Violation {
  invariant: InvariantName;
  detail: string;
}

/** The agents at the service, by name, with what the state's outputs are compared to. */
export interface ServiceAgent {
  name: string;
  activeDeploymentId: string;
  desiredDeploymentId?: string;
  available?: boolean;
  autoScaling?: unknown;
  /**
   * The image of the deployment the agent converges to: the pending one while an update rolls out (or never
   * validates), else the one that serves. The state's `image` records the same (src/resources/agent/read.ts:
   * mid-rollout, the manifest describes the pending deployment).
   */
  activeImage?: string;
}

/** What the service holds now (read with faults cleared). */
export async function serviceAgents(emu: Emu): Promise<Map<string, ServiceAgent>> {
  const { agents } = await emu.control.listAgents();
  const found = new Map<string, ServiceAgent>();
  for (const summary of agents) {
    const raw = await emu.raw("GET", `/v1/agents/${summary.name}`);
    if (raw.status !== 200) continue;
    const answer = raw.json as Record<string, unknown>;
    found.set(summary.name, {
      name: summary.name,
      activeDeploymentId: summary.activeDeploymentId,
      ...(typeof answer["desiredDeploymentId"] === "string" ? { desiredDeploymentId: answer["desiredDeploymentId"] } : {}),
      ...(typeof answer["available"] === "boolean" ? { available: answer["available"] } : {}),
      autoScaling: answer["autoScaling"],
      ...imageOf(summary.deployments.find((d) => d.id === (typeof answer["desiredDeploymentId"] === "string" ? answer["desiredDeploymentId"] : summary.activeDeploymentId))?.image),
    });
  }
  return found;
}

const imageOf = (image: string | undefined) => (image === undefined ? {} : { activeImage: image });

/** An agent's name at the service, as the state records it. */
export const serviceNameOf = (r: ExportedResource): string => String(r.outputs?.["serviceName"] ?? r.outputs?.["name"] ?? r.id);

const isPending = (r: ExportedResource): boolean => typeof r.outputs?.["__pending"] === "string";

const scalingOf = (value: unknown): string => {
  if (typeof value !== "object" || value === null) return "none";
  const s = value as Record<string, unknown>;
  return `${String(s["minAgents"] ?? s["minReplicas"])}..${String(s["maxAgents"] ?? s["maxReplicas"])}`;
};

/** The state's outputs of `r` against the service's answer: the fields that differ. */
function differences(r: ExportedResource, at: ServiceAgent): string[] {
  const out = r.outputs ?? {};
  const diffs: string[] = [];
  if (out["activeDeploymentId"] !== at.activeDeploymentId) diffs.push(`activeDeploymentId ${String(out["activeDeploymentId"])} ≠ ${at.activeDeploymentId}`);
  if (at.desiredDeploymentId !== undefined && out["desiredDeploymentId"] !== at.desiredDeploymentId) diffs.push(`desiredDeploymentId ${String(out["desiredDeploymentId"])} ≠ ${at.desiredDeploymentId}`);
  if (at.available !== undefined && out["available"] !== at.available) diffs.push(`available ${String(out["available"])} ≠ ${String(at.available)}`);
  if (at.activeImage !== undefined && out["image"] !== at.activeImage) diffs.push(`image ${String(out["image"])} ≠ ${at.activeImage}`);
  if (at.autoScaling !== undefined && scalingOf(out["autoScaling"]) !== scalingOf(at.autoScaling)) diffs.push(`autoScaling ${scalingOf(out["autoScaling"])} ≠ ${scalingOf(at.autoScaling)}`);
  return diffs;
}

/**
 * State tells the truth: every agent in the state equals the service, or
 * (`allowPending`, after a failed operation) carries the pending mark.
 * `excused` are agents changed outside Pulumi since the stack last read them.
 */
export function truth(state: StackState, service: Map<string, ServiceAgent>, excused: Set<string>, allowPending: boolean): Violation[] {
  const found: Violation[] = [];
  for (const r of state.agents) {
    const name = serviceNameOf(r);
    if (excused.has(name)) continue;
    const at = service.get(name);
    if (!at) {
      if (!(allowPending && isPending(r))) found.push({ invariant: "state tells the truth", detail: `${name} is in the state but not at the service` });
      continue;
    }
    const diffs = differences(r, at);
    if (diffs.length > 0 && !(allowPending && isPending(r))) found.push({ invariant: "state tells the truth", detail: `${name}: ${diffs.join("; ")}` });
  }
  return found;
}

/** Nothing orphaned: every declared agent is in the state and at the service; nothing the stack made is at the service unknown to the state. */
export function orphans(program: AgentSpec[] | undefined, state: StackState, service: Map<string, ServiceAgent>, foreign: Set<string>, excused: Set<string>): Violation[] {
  const inState = new Set(state.agents.map(serviceNameOf));
  const found: Violation[] = [];
  for (const name of service.keys()) {
    if (!foreign.has(name) && !inState.has(name)) found.push({ invariant: "nothing orphaned", detail: `${name} is at the service, made by the stack, and not in its state` });
  }
  // An up deletes every agent a replace left marked for deletion (the engine's `delete: true`).
  if (program) for (const r of state.agents.filter((a) => a.delete === true)) found.push({ invariant: "nothing orphaned", detail: `${serviceNameOf(r)} is still marked for deletion in the state after an up` });
  for (const agent of program ?? []) {
    if (excused.has(agent.serviceName)) continue;
    if (!inState.has(agent.serviceName)) found.push({ invariant: "nothing orphaned", detail: `${agent.serviceName} is declared but not in the state` });
    if (!service.has(agent.serviceName)) found.push({ invariant: "nothing orphaned", detail: `${agent.serviceName} is declared but not at the service` });
  }
  return found;
}

/** No takeover: an agent made outside Pulumi is never in the state and still runs the deployment it was made with. */
export function noTakeover(state: StackState, service: Map<string, ServiceAgent>, foreign: Map<string, string>): Violation[] {
  const inState = new Set(state.agents.map(serviceNameOf));
  const found: Violation[] = [];
  for (const [name, deploymentId] of foreign) {
    if (inState.has(name)) found.push({ invariant: "no takeover", detail: `${name}, made outside Pulumi, is in the stack's state` });
    const at = service.get(name);
    if (!at) found.push({ invariant: "no takeover", detail: `${name}, made outside Pulumi, is gone from the service` });
    else if (at.activeDeploymentId !== deploymentId) found.push({ invariant: "no takeover", detail: `${name}, made outside Pulumi, now serves ${at.activeDeploymentId} instead of ${deploymentId}` });
  }
  return found;
}

/** Failures say why: a failed operation's output names an agent of the program (or of the state) and has an error line. */
export function failureSaysWhy(outcome: Outcome, names: string[]): Violation[] {
  if (outcome.ok) return [];
  if (!/error/i.test(outcome.output)) return [{ invariant: "failures say why", detail: `a failed operation printed no error:\n${tail(outcome.output)}` }];
  if (names.length > 0 && !names.some((n) => outcome.output.includes(n))) {
    return [{ invariant: "failures say why", detail: `a failed operation names none of ${names.join(", ")}:\n${tail(outcome.output)}` }];
  }
  return [];
}

/** No key or credential: the service's key appears in no output, state or CLI line. */
export function noKey(apiKey: string, texts: { what: string; text: string }[]): Violation[] {
  return texts.filter((t) => t.text.includes(apiKey)).map((t) => ({ invariant: "no key or credential" as const, detail: `the API key is in ${t.what}` }));
}

/** The end: after a destroy, nothing in the state and nothing the stack made at the service. */
export function theEnd(state: StackState, service: Map<string, ServiceAgent>, foreign: Set<string>): Violation[] {
  const found: Violation[] = [];
  if (state.agents.length > 0) found.push({ invariant: "the end", detail: `the state still holds ${state.agents.map(serviceNameOf).join(", ")}` });
  const left = [...service.keys()].filter((n) => !foreign.has(n));
  if (left.length > 0) found.push({ invariant: "the end", detail: `the service still runs ${left.join(", ")}` });
  return found;
}

export const tail = (text: string, lines = 25): string => text.trim().split("\n").slice(-lines).join("\n");
