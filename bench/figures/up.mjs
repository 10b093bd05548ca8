// `pulumi up` and `pulumi destroy` of the agents against trivial dynamic
// resources and against the Agent-shaped control, as interleaved rounds on
// the same machine; during each agents' up, the requests the emulator
// received, its CPU time, and the dynamic provider process's peak memory,
// alone and over the control's.
import { declaredFigure, ruleTable } from "../lib/rules.mjs";
import { agentShapedStack, controlRule, memoryControlRule, sizedId, trivialFloorRule, upDestroyPairs, versus, writeAgentSample } from "../lib/engine-stacks.mjs";
import { watchProviderPeak } from "../lib/process-peak.mjs";
import { quiet, stackFor } from "../lib/stacks.mjs";
import { round } from "../lib/stats.mjs";

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
    "provider-memory-control": () => memoryControlRule,
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

  // Each side's up: the agents' with the emulator's counters and CPU time,
  // and the peak memory of the dynamic provider process of the agents and of
  // the control (the same binary: each watch counts only the processes that
  // start during its own up).
  const aroundUp = async (key, up) => {
    if (key === "trivial") return up();
    if (key === "shaped") {
      const watch = watchProviderPeak();
      await up();
      return { peak: watch.stop() };
    }
    await ctx.control.reset();
    const cpuBefore = ctx.emulator.cpuMs();
    const watch = watchProviderPeak();
    const ms = await up();
    const peak = watch.stop();
    const requests = (await ctx.control.stats()).requests;
    const emulatorMs = ctx.emulator.cpuMs() - cpuBefore;
    return { peak, requests: round(requests / n), emulator: { msPerRequest: round(emulatorMs / requests), shareOfUp: round(emulatorMs / ms) } };
  };
  const pairs = await upDestroyPairs(ctx, stacks, {
    opts,
    aroundUp,
    describe: (pair, i) => {
      const { agents, shaped } = pair.beside;
      return (
        `up pair ${i + 1}/${ctx.pairs}: up ${pair.up.agents} / ${pair.up.trivial} / ${pair.up.shaped} ms, destroy ${pair.destroy.agents} / ${pair.destroy.trivial} / ${pair.destroy.shaped} ms (agents / trivial / shaped); ` +
        `${agents.requests} requests per agent; emulator ${agents.emulator.msPerRequest} ms CPU per request; provider peak ${agents.peak} MiB (control's ${shaped.peak} MiB)`
      );
    },
  });
  const agentsBeside = pairs.map((p) => p.beside.agents);

  const against = (op, baseline) => versus(pairs, (p) => p[op], "agents", baseline);
  return [
    declaredFigure(RULES, { id: sizedId("up", n), name: `pulumi up of ${n} agents / ${n} trivial 2 s resources`, unit: "×", samples: against("up", "trivial") }),
    declaredFigure(RULES, { id: sizedId("destroy", n), name: `pulumi destroy of ${n} agents / ${n} trivial resources`, unit: "×", samples: against("destroy", "trivial") }),
    declaredFigure(RULES, { id: sizedId("up-control", n), name: `control: pulumi up of ${n} agents / ${n} Agent-shaped 2 s resources`, unit: "×", samples: against("up", "shaped") }),
    declaredFigure(RULES, { id: sizedId("destroy-control", n), name: `control: pulumi destroy of ${n} agents / ${n} Agent-shaped resources`, unit: "×", samples: against("destroy", "shaped") }),
    declaredFigure(RULES, {
      id: sizedId("requests", n),
      name: `requests to the service per agent during pulumi up of ${n} agents (ready after 2 s)`,
      unit: "",
      samples: agentsBeside.map((b) => b.requests),
    }),
    declaredFigure(RULES, {
      id: sizedId("emulator-cost", n),
      name: `emulator CPU per request during pulumi up of ${n} agents`,
      unit: "ms",
      samples: agentsBeside.map((b) => b.emulator.msPerRequest),
      extra: { emulatorShareOfUp: agentsBeside.map((b) => b.emulator.shareOfUp) },
    }),
    declaredFigure(RULES, {
      id: sizedId("provider-memory", n),
      name: `peak RSS of the dynamic provider process during pulumi up of ${n} agents`,
      unit: "MiB",
      samples: agentsBeside.map((b) => b.peak),
    }),
    declaredFigure(RULES, {
      id: sizedId("provider-memory-control", n),
      name: `control: peak RSS of the dynamic provider process during pulumi up of ${n} agents / of ${n} Agent-shaped 2 s resources`,
      unit: "×",
      samples: versus(pairs, (p) => ({ agents: p.beside.agents.peak, shaped: p.beside.shaped.peak }), "agents", "shaped"),
    }),
  ];
}
