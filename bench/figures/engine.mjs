// `pulumi up` and no-op `pulumi preview` of the agents against trivial
// dynamic resources, as interleaved pairs on the same machine.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeFigure } from "../lib/figure.mjs";
import { agentSample, quiet, stackFor } from "../lib/stacks.mjs";
import { interleavedPairs, round, subjectFirst, timed } from "../lib/stats.mjs";

const RATIO_AT_MOST = (limit) => ({ method: "p80", combine: "ratio", compare: "<=", limit });

/**
 * After one untimed round, each pair: an up of the agents and an up of as
 * many 2 s sleepers, each from an empty stack; destroys untimed.
 */
export async function upFigures(ctx) {
  const n = ctx.agents;
  ctx.log(`pulumi up: ${n} agents (ready after 2 s) vs ${n} trivial resources sleeping 2 s, parallel ${n}, ${ctx.pairs} pairs`);
  const agents = await stackFor(ctx.work, "up-agents", "agents.cjs", { count: n, prefix: "up" }, ctx.emulator);
  const trivial = await stackFor(ctx.work, "up-trivial", "trivial.cjs", { count: n, sleepMs: 2000 }, ctx.emulator);
  const opts = { ...quiet, parallel: n };
  const upThenDestroy = async (handle) => {
    const ms = await timed(() => handle.stack.up(opts));
    await handle.stack.destroy(opts);
    return ms;
  };
  // One untimed round first: a workspace's first operation pays one-off costs (plugin discovery, caches).
  await upThenDestroy(agents);
  await upThenDestroy(trivial);
  const samples = await interleavedPairs(
    ctx.pairs,
    () => upThenDestroy(agents),
    () => upThenDestroy(trivial),
    (s, i) => ctx.log(`up pair ${i + 1}/${ctx.pairs}: ${Math.round(s.subject)} vs ${Math.round(s.baseline)} ms`),
  );
  return [
    makeFigure({
      id: "up",
      name: `pulumi up of ${n} agents / ${n} trivial 2 s resources`,
      unit: "×",
      bar: "≤ 1.25",
      rule: RATIO_AT_MOST(1.25),
      samples,
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
  const agents = await stackFor(ctx.work, "preview-agents", "agents.cjs", { count: n, prefix: "preview" }, ctx.emulator);
  await agents.stack.up(opts);
  const sampleFile = join(ctx.work, "agent-sample.json");
  writeFileSync(sampleFile, JSON.stringify(agentSample(agents)));
  const stacks = {
    agents,
    trivial: await stackFor(ctx.work, "preview-trivial", "trivial.cjs", { count: n, sleepMs: 0 }, ctx.emulator),
    sized: await stackFor(ctx.work, "preview-sized", "trivial-agent-sized.cjs", { count: n, sampleFile }, ctx.emulator, { BENCH_AGENT_SAMPLE: sampleFile }),
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
      id: "preview",
      name: `no-op pulumi preview of ${n} agents / ${n} trivial resources`,
      unit: "×",
      bar: "≤ 1.25",
      rule: RATIO_AT_MOST(1.25),
      samples: versusTrivial,
    }),
    makeFigure({
      id: "preview-control",
      name: `control: no-op preview of ${n} agents / ${n} do-nothing resources with an Agent's inputs and outputs`,
      unit: "×",
      bar: "≤ 1.1 (the provider's own cost is about nothing)",
      rule: RATIO_AT_MOST(1.1),
      samples: versusSized,
    }),
  ];
}
