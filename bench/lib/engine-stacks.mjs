// What the engine figures share: their bars, their ids, and the three sides
// every comparison runs (agents, trivial dynamic resources, and the control:
// do-nothing resources with an Agent's state, bench/programs/agent-shaped.cjs).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentSample, stackFor } from "./stacks.mjs";

export { sizedId } from "./rules.mjs";

/** The bar of a ratio to the trivial floor at 50 agents (bench/README.md lists the bars). */
export const TRIVIAL_BAR_AT_50 = 1.25;
/**
 * The bars of a ratio to the Agent-shaped control, at every size: the
 * provider's own cost: 1.15 for up and destroy, 1.1 for the preview.
 */
export const CONTROL_BARS = { up: 1.15, destroy: 1.15, preview: 1.1 };

export const ratioAtMost = (limit) => ({ method: "p80", combine: "ratio", compare: "<=", limit });
/** A ratio reported without a bar of its own (the bar it informs is the control's). */
export const reportedRatio = { method: "p80", combine: "ratio", compare: "none", limit: 0 };

/**
 * The rule and the bar in words of a ratio to the trivial floor: the
 * design's 1.25 at 50 agents; at larger sizes reported only, because that
 * ratio is the engine's cost of an Agent's state (bench/README.md).
 */
export function trivialFloorRule(n) {
  if (n <= 50) return { rule: ratioAtMost(TRIVIAL_BAR_AT_50), bar: `≤ ${TRIVIAL_BAR_AT_50}` };
  return { rule: reportedRatio, bar: "reported: the engine's cost of an Agent's state; the bar is the control's" };
}

/** The rule and the bar in words of an operation's ratio to the control. */
export function controlRule(op) {
  return { rule: ratioAtMost(CONTROL_BARS[op]), bar: `≤ ${CONTROL_BARS[op]} (the provider's own cost)` };
}

/** Writes one Agent's `{ inputs, outputs }` from the agents' stack state to a file and returns its path. */
export function writeAgentSample(ctx, agents, name) {
  const file = join(ctx.work, `agent-sample-${name}.json`);
  writeFileSync(file, JSON.stringify(agentSample(agents)));
  return file;
}

/**
 * The control's stack: `n` Agent-shaped do-nothing resources whose create
 * (and update) waits `createMs`. `params`, if given, becomes the program's
 * params object (count and sampleFile set on it): the program reads it at
 * every operation, so a caller may change it between them (`image`).
 */
export function agentShapedStack(ctx, name, n, sampleFile, createMs, params = {}) {
  const env = { BENCH_AGENT_SAMPLE: sampleFile, BENCH_SHAPED_CREATE_MS: String(createMs) };
  return stackFor(ctx.work, name, "agent-shaped.cjs", Object.assign(params, { count: n, sampleFile }), ctx.emulator, env);
}

/**
 * Collects the garbage the bench process holds before a timed operation:
 * the inline programs run in this process, so what one operation left would
 * otherwise be collected during the next one, whichever side it is. Needs
 * `node --expose-gc` (npm run bench); without it, does nothing.
 */
export function settle() {
  globalThis.gc?.();
}

/** The order of the three sides in pair `i`: agents first in even pairs, last in odd ones. */
export function sideOrder(first) {
  return first ? ["agents", "trivial", "shaped"] : ["shaped", "trivial", "agents"];
}
