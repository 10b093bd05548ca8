// What the engine figures share: their bars, their ids, and the three sides
// every comparison runs (agents, trivial dynamic resources, and the control:
// do-nothing resources with an Agent's state, bench/programs/agent-shaped.cjs).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { watchMatchingCpu } from "./process-cpu.mjs";
import { mirrored, round, sideOrder, subjectFirst, timed } from "./stats.mjs";
import { agentSample, stackFor } from "./stacks.mjs";

import { BASE_SIZE, declaredFigure, sizedId as sizedFigureId } from "./rules.mjs";

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

/**
 * `ctx.pairs` pairs over `stacks` (keyed by side, the subject first): per
 * side, in sideOrder, an up from an empty stack and then its destroy, each
 * timed. `aroundUp(key, up)` runs the side's up and may measure beside it
 * (what it returns is kept as `pair.beside[key]`); `describe(pair, i)` is
 * the pair's log line. Returns `{ first, up: { key: ms }, destroy: { key: ms }, beside }` per pair.
 */
export async function upDestroyPairs(ctx, stacks, { opts, aroundUp = (_key, up) => up(), describe }) {
  const keys = Object.keys(stacks);
  const pairs = [];
  for (let i = 0; i < ctx.pairs; i++) {
    const first = subjectFirst(i);
    const pair = { first, up: {}, destroy: {}, beside: {} };
    for (const key of sideOrder(first, keys)) {
      const stack = stacks[key].stack;
      settle();
      pair.beside[key] = await aroundUp(key, async () => {
        pair.up[key] = round(await timed(() => stack.up(opts)));
        return pair.up[key];
      });
      settle();
      pair.destroy[key] = round(await timed(() => stack.destroy(opts)));
    }
    pairs.push(pair);
    ctx.log(describe(pair, i));
  }
  return pairs;
}

/**
 * How many times a preview pair times each side: twice, in mirrored order
 * (agents, trivial, shaped, then shaped, trivial, agents). A no-op preview
 * takes 1 to 6 s, and this machine's speed moves by ±10 % between one
 * preview and the next, under every process at once; each side's two
 * timings then sit at the same mean distance from the pair's middle, so a
 * drift within the pair falls on both sides alike, and each side's mean
 * halves what one slow preview weighs. Ups and destroys (upDestroyPairs)
 * keep one timing a side: their pairs build every stack from empty, and a
 * second timing would double the bench's longest groups (bench/README.md).
 */
export const PREVIEW_TIMINGS_PER_SIDE = 2;

/**
 * The order of one pair's previews: sideOrder, then that order reversed,
 * PREVIEW_TIMINGS_PER_SIDE times in all.
 */
export function mirroredOrder(first, keys) {
  return mirrored(sideOrder(first, keys), PREVIEW_TIMINGS_PER_SIDE);
}

const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * `ctx.pairs` pairs of no-op previews of each of `stacks` (keyed by side,
 * the subject first; brought up before), in mirroredOrder. `aroundPreview(key,
 * preview)` runs one preview of the side and may measure beside it (a
 * number, or undefined). Per pair and side, `ms[key]` is the mean of its
 * timings (kept in `timings[key]`) and `beside[key]` the mean of what
 * aroundPreview returned (undefined when it returned none); `describe(ms, i,
 * beside, timings)` is the pair's log line (sideTimes writes a side's
 * part). Returns `{ first, ms, timings, beside }` per pair.
 */
export async function previewPairs(ctx, stacks, opts, describe, aroundPreview = (_key, preview) => preview()) {
  const keys = Object.keys(stacks);
  const pairs = [];
  for (let i = 0; i < ctx.pairs; i++) {
    const first = subjectFirst(i);
    const timings = Object.fromEntries(keys.map((key) => [key, []]));
    const readings = Object.fromEntries(keys.map((key) => [key, []]));
    for (const key of mirroredOrder(first, keys)) {
      settle();
      readings[key].push(
        await aroundPreview(key, async () => {
          const ms = round(await timed(() => stacks[key].stack.preview(opts)));
          timings[key].push(ms);
          return ms;
        }),
      );
    }
    const ms = Object.fromEntries(keys.map((key) => [key, round(mean(timings[key]))]));
    const beside = Object.fromEntries(
      keys.map((key) => [key, readings[key].every((r) => typeof r === "number") ? round(mean(readings[key])) : undefined]),
    );
    pairs.push({ first, ms, timings, beside });
    ctx.log(describe(ms, i, beside, timings));
  }
  return pairs;
}

/** A side's part of a preview pair's log line: the mean of its timings and, in brackets, each of them (ms). */
export function sideTimes(ms, timings, key) {
  return `${Math.round(ms[key])} (${timings[key].map((t) => Math.round(t)).join(" / ")})`;
}

/**
 * A previewPairs `aroundPreview` that also measures, on the sides `matchers`
 * names, the CPU time of that side's provider process (the processes its
 * matcher accepts that the bench starts during the preview, read from /proc
 * by bench/lib/process-cpu.mjs) ÷ `n` resources: `beside[key]` is ms per
 * resource (undefined on the other sides). The sampler runs in this process
 * every 50 ms during every measured side's preview alike.
 * @param {number} n
 * @param {Record<string, (cmdline: string) => boolean>} matchers
 */
export function providerCpuPerResource(n, matchers) {
  return async (key, preview) => {
    const matches = matchers[key];
    if (!matches) {
      await preview();
      return undefined;
    }
    const cpu = watchMatchingCpu(matches);
    await preview();
    return round(cpu.stop() / n);
  };
}

/**
 * The provider CPU per resource of a no-op preview (`preview-cpu-dynamic-<n>`,
 * `preview-cpu-native-<n>`), measured at the large size only: at 50 agents
 * the process's start would be most of it.
 */
export const measuresPreviewCpu = (n) => n > BASE_SIZE;

/**
 * The sanity bar, ms of the provider process's CPU per resource: about
 * twice the most either process used in runs on a busy 2-core machine (7.3
 * ms; the control's process used 6.5 to 7.4 ms in the same runs). The
 * process loads the SDK, gRPC and protobuf (about 1 s of CPU, 2.5 ms per
 * resource at 400) and turns two calls per resource to and from protobuf;
 * this package's own check, diff and decoding are about 0.2 ms of it. The
 * figure is what is reported; the bar catches a provider that does
 * per-resource work it should not (a request, a schema built per call).
 */
const PREVIEW_CPU_LIMIT_MS = 15;

/** The rule and the bar in words of a provider's CPU ms per resource in a no-op preview. */
export const previewCpuRule = {
  rule: { method: "max", combine: "value", compare: "<=", limit: PREVIEW_CPU_LIMIT_MS },
  bar: `≤ ${PREVIEW_CPU_LIMIT_MS} in every run (a sanity bar of this bench: the figure itself is what is reported)`,
};

/**
 * The figure of a provider's CPU per resource in a no-op preview (`idBase`
 * at size `n`), from preview pairs whose `beside` holds the agents' and the
 * control's readings; `who` names the provider process.
 */
export function previewCpuFigure(rules, idBase, n, who, pairs) {
  return declaredFigure(rules, {
    id: sizedFigureId(idBase, n),
    name: `${who} process CPU per resource in a no-op pulumi preview of ${n} agents`,
    unit: "ms",
    samples: pairs.map((p) => p.beside.agents),
    extra: { controlMsPerResource: pairs.map((p) => p.beside.shaped) },
  });
}

/** Pair samples of `subject` against `baseline`, from pairs' per-side values picked by `pick(pair)`. */
export function versus(pairs, pick, subject, baseline) {
  return pairs.map((p) => ({ subject: pick(p)[subject], baseline: pick(p)[baseline], subjectFirst: p.first }));
}

/** The bar of a provider process's peak memory over its control's, at every size. */
export const MEMORY_CONTROL_BAR = 1.25;

/**
 * The rule of a peak-memory ratio to the control: the worst pair (max), as
 * every run must meet it; a peak resident set varies far less from run to run
 * than a wall time, so the bound needs no percentile to absorb noise.
 */
export const memoryControlRule = {
  rule: { method: "max", combine: "ratio", compare: "<=", limit: MEMORY_CONTROL_BAR },
  bar: `≤ ${MEMORY_CONTROL_BAR} in every pair (the provider's own memory)`,
};
