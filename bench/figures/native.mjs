// The native plugin's figures: `pulumi up`, no-op `pulumi preview` and
// `pulumi destroy` of native agents against the native control plugin
// (do-nothing resources with a native Agent's state, bench/programs/native-shaped*.cjs),
// and the plugin process's peak memory over the control plugin's, at every
// size; at the large size, in the same previews, the plugin process's CPU
// time per resource (the control plugin's beside it); at 50 agents also its
// no-op preview against the dynamic provider's and its cold start to the
// first answered RPC (bench/native.mjs).
import { join } from "node:path";
import {
  controlRule,
  measuresPreviewCpu,
  memoryControlRule,
  previewCpuFigure,
  previewCpuRule,
  previewPairs,
  providerCpuPerResource,
  sideTimes,
  sizedId,
  upDestroyPairs,
  versus,
  writeAgentSample,
} from "../lib/engine-stacks.mjs";
import { CONTROL_PLUGIN, installControlPlugin } from "../lib/native-control.mjs";
import { isPlugin, watchProviderPeak } from "../lib/process-peak.mjs";
import { declaredFigure, ruleTable } from "../lib/rules.mjs";
import { quiet, stackFor } from "../lib/stacks.mjs";
import { benchNativePreview, benchPluginColdStart, homeWithPlugin } from "../native.mjs";

const CREATE_MS = 2000;

const COLD_START = {
  bar: "≤ 2000 in every run (a sanity bar of this bench: the figure itself is what is reported)",
  rule: { method: "max", combine: "value", compare: "<=", limit: 2000 },
};

/** The rule and the bar of every figure this module makes, by id (bench/lib/rules.mjs). */
export const RULES = ruleTable(
  {
    "native-preview": { bar: "≤ 1.0", rule: { method: "p80", combine: "ratio", compare: "<=", limit: 1.0 } },
    "plugin-cold-start": COLD_START,
    "plugin-cold-start-bundle": COLD_START,
  },
  {
    "native-up-control": () => controlRule("up"),
    "native-preview-control": () => controlRule("preview"),
    "native-destroy-control": () => controlRule("destroy"),
    "native-memory-control": () => memoryControlRule,
    "preview-cpu-native": (n) => (measuresPreviewCpu(n) ? previewCpuRule : undefined),
  },
);

/** A PULUMI_HOME with the real plugin and the control plugin installed from their tarballs. */
async function nativeHome(ctx) {
  const dir = join(ctx.work, `native-home-${ctx.agents}`);
  const home = homeWithPlugin(dir);
  await installControlPlugin(home, join(dir, "control"));
  return home;
}

/**
 * Both sides up once, untimed (the agents' state gives the control its
 * state), one untimed preview each, pairs of no-op previews, and an untimed
 * destroy of each; then pairs of an up from an empty stack and a destroy of
 * `n` native agents (ready after 2 s) and of `n` resources of the control
 * plugin (create waits 2 s), the first side alternating; during each up,
 * the peak memory of that side's plugin process; at the large size, during
 * each preview, the CPU time of that side's plugin process ÷ n. The previews run on the
 * stacks of the untimed round, so no side is brought up more than the pairs
 * need.
 */
async function nativeControlFigures(ctx, home) {
  const n = ctx.agents;
  ctx.log(`native plugin: preview, up and destroy of ${n} native agents vs ${n} resources of the native control plugin, parallel ${n}, ${ctx.pairs} pairs`);
  const opts = { ...quiet, parallel: n };
  const env = { PULUMI_HOME: home, PULUMI_IGNORE_AMBIENT_PLUGINS: "true" };
  const agents = await stackFor(ctx.work, `native-agents-${n}`, "native-agents.cjs", { count: n, prefix: "natctl" }, ctx.emulator, env);
  await agents.stack.up(opts);
  const sampleFile = writeAgentSample(ctx, agents, `native-${n}`);
  const shapedEnv = { ...env, BENCH_AGENT_SAMPLE: sampleFile, BENCH_SHAPED_CREATE_MS: String(CREATE_MS) };
  const shaped = await stackFor(ctx.work, `native-shaped-${n}`, "native-shaped.cjs", { count: n, sampleFile }, ctx.emulator, shapedEnv);
  await shaped.stack.up(opts);
  const stacks = { agents, shaped };

  // Each side's plugin is a process of its own, told apart by its installed path.
  const plugin = { agents: isPlugin("agent-hosting"), shaped: isPlugin(CONTROL_PLUGIN.name) };
  const cpu = measuresPreviewCpu(n);

  for (const handle of Object.values(stacks)) await handle.stack.preview(opts); // untimed warm-up
  const previews = await previewPairs(
    ctx,
    stacks,
    opts,
    (ms, i, beside, timings) =>
      `native preview pair ${i + 1}/${ctx.pairs}: agents ${sideTimes(ms, timings, "agents")}, control ${sideTimes(ms, timings, "shaped")} ms` +
      (cpu ? `; plugin CPU per resource: agents ${beside.agents}, control ${beside.shaped} ms` : ""),
    cpu ? providerCpuPerResource(n, plugin) : undefined,
  );
  for (const handle of Object.values(stacks)) await handle.stack.destroy(opts);

  const pairs = await upDestroyPairs(ctx, stacks, {
    opts,
    aroundUp: async (key, up) => {
      const watch = watchProviderPeak(plugin[key]);
      await up();
      return watch.stop();
    },
    describe: (pair, i) =>
      `native up pair ${i + 1}/${ctx.pairs}: up ${pair.up.agents} / ${pair.up.shaped} ms, destroy ${pair.destroy.agents} / ${pair.destroy.shaped} ms, plugin peak ${pair.beside.agents} / ${pair.beside.shaped} MiB (agents / control)`,
  });

  const ratio = (op, what) =>
    declaredFigure(RULES, {
      id: sizedId(`native-${op}-control`, n),
      name: `native plugin: ${what} of ${n} agents / of ${n} resources of the native control plugin`,
      unit: "×",
      samples: op === "preview" ? versus(previews, (p) => p.ms, "agents", "shaped") : versus(pairs, (p) => p[op], "agents", "shaped"),
    });
  return [
    ratio("up", "pulumi up (ready after 2 s; the control's create waits 2 s)"),
    ratio("preview", "no-op pulumi preview"),
    ratio("destroy", "pulumi destroy"),
    declaredFigure(RULES, {
      id: sizedId("native-memory-control", n),
      name: `native plugin: peak RSS of the plugin process during pulumi up of ${n} agents / of the native control plugin's`,
      unit: "×",
      samples: versus(pairs, (p) => p.beside, "agents", "shaped"),
    }),
    ...(cpu ? [previewCpuFigure(RULES, "preview-cpu-native", n, "native plugin", previews)] : []),
  ];
}

/** The `native` group (50 agents): the plugin against the dynamic provider, its cold start, and its figures against the native control. */
export async function nativeFigures(ctx) {
  const home = await nativeHome(ctx);
  const [preview] = await benchNativePreview({ emulator: ctx.emulator, work: ctx.work, runs: ctx.pairs, agents: ctx.agents, log: ctx.log, home });
  const { nativeMs, dynamicMs } = preview.extra;
  const samples = nativeMs.map((ms, i) => ({ subject: ms, baseline: dynamicMs[i], subjectFirst: i % 2 === 0 }));
  const cold = await benchPluginColdStart({ runs: ctx.pairs, log: ctx.log });
  const coldFigure = (id, measured) =>
    declaredFigure(RULES, {
      id,
      name: measured.name,
      unit: "ms",
      samples: measured.values.map((v) => Math.round(v)),
      extra: measured.extra,
    });
  return [
    declaredFigure(RULES, {
      id: "native-preview",
      name: preview.name,
      unit: "×",
      samples,
    }),
    coldFigure("plugin-cold-start", cold[0]),
    coldFigure("plugin-cold-start-bundle", cold[1]),
    ...(await nativeControlFigures(ctx, home)),
  ];
}

/** A `native-<n>` group: the plugin's figures against the native control at ctx.agents. */
export async function nativeControlGroup(ctx) {
  return nativeControlFigures(ctx, await nativeHome(ctx));
}
