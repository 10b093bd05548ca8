// `pulumi up` and `pulumi destroy` of the agents against trivial dynamic
// resources and against the Agent-shaped control, as interleaved rounds on
// the same machine; during each agents' up, the requests the emulator
// received, its CPU time, and the dynamic provider process's peak memory.
import { declaredFigure, ruleTable } from "../lib/rules.mjs";
import { agentShapedStack, controlRule, settle, sideOrder, sizedId, trivialFloorRule, writeAgentSample } from "../lib/engine-stacks.mjs";
import { watchProviderPeak } from "../lib/process-peak.mjs";
import { quiet, stackFor } from "../lib/stacks.mjs";
import { round, subjectFirst, timed } from "../lib/stats.mjs";

const CREATE_MS = 2000;

/** The rule and the bar of every figure this module makes, by id (bench/lib/rules.mjs). */
export const RULES = ruleTable(
  {},
  {
    up: trivialFloorRule,
    destroy: trivialFloorRule,
    "up-control": () => controlRule("up"),
    "destroy-control": () => controlRule("destroy"),
    requests: () => ({ bar: "≤ 8 in every run", rule: { method: "max", combine: "value", compare: "<=", limit: 8 } }),
    "emulator-cost": () => ({
      bar: "≤ 1 in every run (our own sanity bar: the emulator is not the bottleneck it measures)",
      rule: { method: "max", combine: "value", compare: "<=", limit: 1 },
    }),
    "provider-memory": () => ({
      bar: "≤ 512 in every run (a sanity bar of this bench: the figure itself is what is reported)",
      rule: { method: "max", combine: "value", compare: "<=", limit: 512 },
    }),
  },
);

/**
 * After one untimed round, each pair: an up and a destroy of the agents, of
 * as many 2 s sleepers and of as many Agent-shaped resources whose create
 * waits 2 s, each up from an empty stack, all timed; the agents first in
 * even pairs and last in odd ones.
 */
export async function upFigures(ctx) {
  const n = ctx.agents;
  ctx.log(`pulumi up and destroy: ${n} agents (ready after 2 s) vs ${n} trivial 2 s resources vs ${n} Agent-shaped 2 s resources, parallel ${n}, ${ctx.pairs} pairs`);
  const opts = { ...quiet, parallel: n };
  const agents = await stackFor(ctx.work, `up-agents-${n}`, "agents.cjs", { count: n, prefix: "up" }, ctx.emulator);
  // The untimed round's agents give the control its state.
  await agents.stack.up(opts);
  const sampleFile = writeAgentSample(ctx, agents, `up-${n}`);
  await agents.stack.destroy(opts);
  const stacks = {
    agents,
    trivial: await stackFor(ctx.work, `up-trivial-${n}`, "trivial.cjs", { count: n, sleepMs: CREATE_MS }, ctx.emulator),
    shaped: await agentShapedStack(ctx, `up-shaped-${n}`, n, sampleFile, CREATE_MS),
  };
  for (const key of ["trivial", "shaped"]) {
    await stacks[key].stack.up(opts);
    await stacks[key].stack.destroy(opts);
  }

  const pairs = [];
  for (let i = 0; i < ctx.pairs; i++) {
    const first = subjectFirst(i);
    const pair = { first, up: {}, destroy: {} };
    for (const key of sideOrder(first)) {
      const stack = stacks[key].stack;
      const agentsSide = key === "agents";
      if (agentsSide) await ctx.control.reset();
      const cpuBefore = ctx.emulator.cpuMs();
      const watch = agentsSide ? watchProviderPeak() : undefined;
      settle();
      pair.up[key] = round(await timed(() => stack.up(opts)));
      if (agentsSide) {
        pair.peak = watch.stop();
        const requests = (await ctx.control.stats()).requests;
        const emulatorMs = ctx.emulator.cpuMs() - cpuBefore;
        pair.requests = round(requests / n);
        pair.emulator = { msPerRequest: round(emulatorMs / requests), shareOfUp: round(emulatorMs / pair.up.agents) };
      }
      settle();
      pair.destroy[key] = round(await timed(() => stack.destroy(opts)));
    }
    pairs.push(pair);
    ctx.log(
      `up pair ${i + 1}/${ctx.pairs}: up ${pair.up.agents} / ${pair.up.trivial} / ${pair.up.shaped} ms, destroy ${pair.destroy.agents} / ${pair.destroy.trivial} / ${pair.destroy.shaped} ms (agents / trivial / shaped); ` +
        `${pair.requests} requests per agent; emulator ${pair.emulator.msPerRequest} ms CPU per request; provider peak ${pair.peak} MiB`,
    );
  }

  const versus = (op, baseline) => pairs.map((p) => ({ subject: p[op].agents, baseline: p[op][baseline], subjectFirst: p.first }));
  return [
    declaredFigure(RULES, { id: sizedId("up", n), name: `pulumi up of ${n} agents / ${n} trivial 2 s resources`, unit: "×", samples: versus("up", "trivial") }),
    declaredFigure(RULES, { id: sizedId("destroy", n), name: `pulumi destroy of ${n} agents / ${n} trivial resources`, unit: "×", samples: versus("destroy", "trivial") }),
    declaredFigure(RULES, { id: sizedId("up-control", n), name: `control: pulumi up of ${n} agents / ${n} Agent-shaped 2 s resources`, unit: "×", samples: versus("up", "shaped") }),
    declaredFigure(RULES, { id: sizedId("destroy-control", n), name: `control: pulumi destroy of ${n} agents / ${n} Agent-shaped resources`, unit: "×", samples: versus("destroy", "shaped") }),
    declaredFigure(RULES, {
      id: sizedId("requests", n),
      name: `requests to the service per agent during pulumi up of ${n} agents (ready after 2 s)`,
      unit: "",
      samples: pairs.map((p) => p.requests),
    }),
    declaredFigure(RULES, {
      id: sizedId("emulator-cost", n),
      name: `emulator CPU per request during pulumi up of ${n} agents`,
      unit: "ms",
      samples: pairs.map((p) => p.emulator.msPerRequest),
      extra: { emulatorShareOfUp: pairs.map((p) => p.emulator.shareOfUp) },
    }),
    declaredFigure(RULES, {
      id: sizedId("provider-memory", n),
      name: `peak RSS of the dynamic provider process during pulumi up of ${n} agents`,
      unit: "MiB",
      samples: pairs.map((p) => p.peak),
    }),
  ];
}
