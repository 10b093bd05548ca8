// `pulumi up` and no-op `pulumi preview` of the agents against trivial
// dynamic resources, as interleaved pairs on the same machine.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeFigure } from "../lib/figure.mjs";
import { watchProviderPeak } from "../lib/process-peak.mjs";
import { agentSample, quiet, stackFor } from "../lib/stacks.mjs";
import { interleavedPairs, round, subjectFirst, timed } from "../lib/stats.mjs";

const RATIO_AT_MOST = (limit) => ({ method: "p80", combine: "ratio", compare: "<=", limit });

/** The bar of a ratio to the trivial floor at this size: 1.25 at 50 agents, 1.15 at 400. */
export const floorBar = (n) => (n >= 400 ? 1.15 : 1.25);

/** A figure id at this size: the plain id at 50 agents, `<id>-<n>` otherwise. */
export const sizedId = (id, n) => (n === 50 ? id : `${id}-${n}`);

/**
 * After one untimed round, each pair: an up and a destroy of the agents and
 * of as many 2 s sleepers, each up from an empty stack, both timed. During
 * each agents' up the emulator counts the requests it receives, and the
 * dynamic provider process's peak memory is sampled.
 */
export async function upFigures(ctx) {
  const n = ctx.agents;
  ctx.log(`pulumi up and destroy: ${n} agents (ready after 2 s) vs ${n} trivial resources sleeping 2 s, parallel ${n}, ${ctx.pairs} pairs`);
  const agents = await stackFor(ctx.work, `up-agents-${n}`, "agents.cjs", { count: n, prefix: "up" }, ctx.emulator);
  const trivial = await stackFor(ctx.work, `up-trivial-${n}`, "trivial.cjs", { count: n, sleepMs: 2000 }, ctx.emulator);
  const opts = { ...quiet, parallel: n };
  const destroys = [];
  const requests = [];
  const peaks = [];
  const upThenDestroy = async (handle, side) => {
    const isAgents = handle === agents;
    if (isAgents) await ctx.control.reset();
    const watch = isAgents ? watchProviderPeak() : undefined;
    const upMs = await timed(() => handle.stack.up(opts));
    if (watch) peaks.push(watch.stop());
    if (isAgents) requests.push(round((await ctx.control.stats()).requests / n));
    const destroyMs = await timed(() => handle.stack.destroy(opts));
    side.destroyMs = destroyMs;
    return upMs;
  };
  // One untimed round first: a workspace's first operation pays one-off costs (plugin discovery, caches).
  await upThenDestroy(agents, {});
  await upThenDestroy(trivial, {});
  requests.length = 0;
  peaks.length = 0;
  const samples = await interleavedPairs(
    ctx.pairs,
    async () => {
      const side = {};
      const ms = await upThenDestroy(agents, side);
      destroys.push({ subject: round(side.destroyMs) });
      return ms;
    },
    async () => {
      const side = {};
      const ms = await upThenDestroy(trivial, side);
      destroys.push({ baseline: round(side.destroyMs) });
      return ms;
    },
    (s, i) => ctx.log(`up pair ${i + 1}/${ctx.pairs}: ${Math.round(s.subject)} vs ${Math.round(s.baseline)} ms; ${requests[i]} requests per agent; provider peak ${peaks[i]} MiB`),
  );
  // Each pair pushed its two destroys in the order they ran; join them into pairs like the ups.
  const destroySamples = samples.map((s, i) => {
    const [a, b] = destroys.slice(2 * i, 2 * i + 2);
    return { subject: a?.subject ?? b?.subject, baseline: a?.baseline ?? b?.baseline, subjectFirst: s.subjectFirst };
  });
  const bar = floorBar(n);
  return [
    makeFigure({ id: sizedId("up", n), name: `pulumi up of ${n} agents / ${n} trivial 2 s resources`, unit: "×", bar: `≤ ${bar}`, rule: RATIO_AT_MOST(bar), samples }),
    makeFigure({ id: sizedId("destroy", n), name: `pulumi destroy of ${n} agents / ${n} trivial resources`, unit: "×", bar: `≤ ${bar}`, rule: RATIO_AT_MOST(bar), samples: destroySamples }),
    makeFigure({
      id: sizedId("requests", n),
      name: `requests to the service per agent during pulumi up of ${n} agents (ready after 2 s)`,
      unit: "",
      bar: "≤ 8 in every run",
      rule: { method: "max", combine: "value", compare: "<=", limit: 8 },
      samples: requests,
    }),
    makeFigure({
      id: sizedId("provider-memory", n),
      name: `peak RSS of the dynamic provider process during pulumi up of ${n} agents`,
      unit: "MiB",
      bar: "≤ 512 in every run (our own sanity bar; the issue asks for the figure)",
      rule: { method: "max", combine: "value", compare: "<=", limit: 512 },
      samples: peaks,
    }),
  ];
}

/**
 * Each pair: a no-op preview of the agents, of trivial resources, and of
 * do-nothing resources carrying an Agent's inputs and outputs (the control),
 * in an order that alternates, on stacks brought up once and previewed once
 * untimed.
 */
export async function previewFigures(ctx) {
  const n = ctx.agents;
  ctx.log(`no-op pulumi preview: ${n} agents vs ${n} trivial resources vs ${n} Agent-sized do-nothing resources, ${ctx.pairs} pairs`);
  const opts = { ...quiet, parallel: n };
  const agents = await stackFor(ctx.work, `preview-agents-${n}`, "agents.cjs", { count: n, prefix: "preview" }, ctx.emulator);
  await agents.stack.up(opts);
  const sampleFile = join(ctx.work, `agent-sample-${n}.json`);
  writeFileSync(sampleFile, JSON.stringify(agentSample(agents)));
  const stacks = {
    agents,
    trivial: await stackFor(ctx.work, `preview-trivial-${n}`, "trivial.cjs", { count: n, sleepMs: 0 }, ctx.emulator),
    sized: await stackFor(ctx.work, `preview-sized-${n}`, "trivial-agent-sized.cjs", { count: n, sampleFile }, ctx.emulator, { BENCH_AGENT_SAMPLE: sampleFile }),
  };
  await stacks.trivial.stack.up(opts);
  await stacks.sized.stack.up(opts);
  for (const handle of Object.values(stacks)) await handle.stack.preview(opts); // untimed warm-up
  const versusTrivial = [];
  const versusSized = [];
  for (let i = 0; i < ctx.pairs; i++) {
    const first = subjectFirst(i);
    const order = first ? ["agents", "trivial", "sized"] : ["sized", "trivial", "agents"];
    const ms = {};
    for (const key of order) ms[key] = await timed(() => stacks[key].stack.preview(opts));
    versusTrivial.push({ subject: round(ms.agents), baseline: round(ms.trivial), subjectFirst: first });
    versusSized.push({ subject: round(ms.agents), baseline: round(ms.sized), subjectFirst: first });
    ctx.log(`preview pair ${i + 1}/${ctx.pairs}: agents ${Math.round(ms.agents)}, trivial ${Math.round(ms.trivial)}, sized ${Math.round(ms.sized)} ms`);
  }
  for (const handle of Object.values(stacks)) await handle.stack.destroy(opts);
  return [
    makeFigure({
      id: sizedId("preview", n),
      name: `no-op pulumi preview of ${n} agents / ${n} trivial resources`,
      unit: "×",
      bar: `≤ ${floorBar(n)}`,
      rule: RATIO_AT_MOST(floorBar(n)),
      samples: versusTrivial,
    }),
    makeFigure({
      id: sizedId("preview-control", n),
      name: `control: no-op preview of ${n} agents / ${n} do-nothing resources with an Agent's inputs and outputs`,
      unit: "×",
      bar: "≤ 1.1 (the provider's own cost is about nothing)",
      rule: RATIO_AT_MOST(1.1),
      samples: versusSized,
    }),
  ];
}

/**
 * The growth of the per-agent cost with the stack's size: for up, preview
 * and destroy, the bound (p80) of the ratio at `large` agents over the one at
 * 50, from the figures already measured. One sample each: the two bounds.
 */
export function scalingFigures(figures, large) {
  const byId = (id) => figures.find((f) => f.id === id);
  return ["up", "preview", "destroy"].flatMap((id) => {
    const small = byId(id);
    const big = byId(sizedId(id, large));
    if (!small || !big) return [];
    return [
      makeFigure({
        id: `${id}-scaling`,
        name: `${id}: ratio to the trivial floor at ${large} agents / at 50 agents (p80 of each)`,
        unit: "×",
        bar: "≤ 1.1",
        rule: { method: "single", combine: "ratio", compare: "<=", limit: 1.1 },
        samples: [{ subject: big.bound, baseline: small.bound }],
        extra: { from: [big.id, small.id] },
      }),
    ];
  });
}
