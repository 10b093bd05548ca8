// No-op `pulumi preview` of the agents against trivial dynamic resources
// and against the Agent-shaped control, in interleaved rounds on stacks
// brought up once; at the large size, in the same previews, the dynamic
// provider process's CPU time per resource, and the control's beside it.
import { declaredFigure, ruleTable } from "../lib/rules.mjs";
import {
  agentShapedStack,
  controlRule,
  measuresPreviewCpu,
  previewCpuFigure,
  previewCpuRule,
  previewPairs,
  providerCpuPerResource,
  sideTimes,
  sizedId,
  trivialFloorRule,
  versus,
  writeAgentSample,
} from "../lib/engine-stacks.mjs";
import { isDynamicProvider } from "../lib/process-peak.mjs";
import { quiet, stackFor } from "../lib/stacks.mjs";

/** The rule and the bar of every figure this module makes, by id (bench/lib/rules.mjs). */
export const RULES = ruleTable(
  {},
  { preview: trivialFloorRule, "preview-control": () => controlRule("preview"), "preview-cpu-dynamic": (n) => (measuresPreviewCpu(n) ? previewCpuRule : undefined) },
);

/**
 * Each pair: a no-op preview of the agents, of trivial resources, and of
 * Agent-shaped do-nothing resources (the control), in an order that
 * alternates, on stacks brought up once and previewed once untimed. At the
 * large size, during every side's preview, the CPU time of that preview's
 * dynamic provider process ÷ n: the agents' is the figure, the control's is
 * recorded beside it, and the trivial side's is read only so the sampler
 * costs every side of a pair the same.
 */
export async function previewFigures(ctx) {
  const n = ctx.agents;
  ctx.log(`no-op pulumi preview: ${n} agents vs ${n} trivial resources vs ${n} Agent-shaped resources, ${ctx.pairs} pairs`);
  const opts = { ...quiet, parallel: n };
  const agents = await stackFor(ctx.work, `preview-agents-${n}`, "agents.cjs", { count: n, prefix: "preview" }, ctx.emulator);
  await agents.stack.up(opts);
  const sampleFile = writeAgentSample(ctx, agents, `preview-${n}`);
  const stacks = {
    agents,
    trivial: await stackFor(ctx.work, `preview-trivial-${n}`, "trivial.cjs", { count: n, sleepMs: 0 }, ctx.emulator),
    shaped: await agentShapedStack(ctx, `preview-shaped-${n}`, n, sampleFile, 0),
  };
  await stacks.trivial.stack.up(opts);
  await stacks.shaped.stack.up(opts);
  for (const handle of Object.values(stacks)) await handle.stack.preview(opts); // untimed warm-up
  const cpu = measuresPreviewCpu(n);
  const pairs = await previewPairs(
    ctx,
    stacks,
    opts,
    (ms, i, beside, timings) =>
      `preview pair ${i + 1}/${ctx.pairs}: agents ${sideTimes(ms, timings, "agents")}, trivial ${sideTimes(ms, timings, "trivial")}, shaped ${sideTimes(ms, timings, "shaped")} ms` +
      (cpu ? `; provider CPU per resource: agents ${beside.agents}, shaped ${beside.shaped} ms` : ""),
    cpu ? providerCpuPerResource(n, { agents: isDynamicProvider, trivial: isDynamicProvider, shaped: isDynamicProvider }) : undefined,
  );
  const versusTrivial = versus(pairs, (p) => p.ms, "agents", "trivial");
  const versusShaped = versus(pairs, (p) => p.ms, "agents", "shaped");
  for (const handle of Object.values(stacks)) await handle.stack.destroy(opts);
  return [
    declaredFigure(RULES, { id: sizedId("preview", n), name: `no-op pulumi preview of ${n} agents / ${n} trivial resources`, unit: "×", samples: versusTrivial }),
    declaredFigure(RULES, {
      id: sizedId("preview-control", n),
      name: `control: no-op pulumi preview of ${n} agents / ${n} Agent-shaped resources`,
      unit: "×",
      samples: versusShaped,
    }),
    ...(cpu ? [previewCpuFigure(RULES, "preview-cpu-dynamic", n, "dynamic provider", pairs)] : []),
  ];
}
