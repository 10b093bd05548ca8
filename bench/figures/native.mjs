// The native plugin's figures: its no-op preview of the agents against the
// dynamic provider's (pairs in turns, the first side alternating), and its
// cold start to the first answered RPC. Measured by bench/native.mjs.
import { declaredFigure, ruleTable } from "../lib/rules.mjs";
import { benchNativePreview, benchPluginColdStart } from "../native.mjs";

const COLD_START = {
  bar: "≤ 2000 in every run (a sanity bar of this bench: the figure itself is what is reported)",
  rule: { method: "max", combine: "value", compare: "<=", limit: 2000 },
};

/** The rule and the bar of every figure this module makes, by id (bench/lib/rules.mjs). */
export const RULES = ruleTable({
  "native-preview": { bar: "≤ 1.0", rule: { method: "p80", combine: "ratio", compare: "<=", limit: 1.0 } },
  "plugin-cold-start": COLD_START,
  "plugin-cold-start-bundle": COLD_START,
});

export async function nativeFigures(ctx) {
  const [preview] = await benchNativePreview({ emulator: ctx.emulator, work: ctx.work, runs: ctx.pairs, agents: ctx.agents, log: ctx.log });
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
  ];
}
