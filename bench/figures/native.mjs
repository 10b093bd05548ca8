// The native plugin's figures: its no-op preview of the agents against the
// dynamic provider's (pairs in turns, the first side alternating), and its
// cold start to the first answered RPC. Measured by bench/native.mjs.
import { makeFigure } from "../lib/figure.mjs";
import { benchNativePreview, benchPluginColdStart } from "../native.mjs";

export async function nativeFigures(ctx) {
  const [preview] = await benchNativePreview({ emulator: ctx.emulator, work: ctx.work, runs: ctx.pairs, agents: ctx.agents, log: ctx.log });
  const { nativeMs, dynamicMs } = preview.extra;
  const samples = nativeMs.map((ms, i) => ({ subject: ms, baseline: dynamicMs[i], subjectFirst: i % 2 === 0 }));
  const cold = await benchPluginColdStart({ runs: ctx.pairs, log: ctx.log });
  const coldFigure = (id, measured) =>
    makeFigure({
      id,
      name: measured.name,
      unit: "ms",
      bar: "≤ 2000 in every run (a sanity bar of this bench: the figure itself is what is reported)",
      rule: { method: "max", combine: "value", compare: "<=", limit: 2000 },
      samples: measured.values.map((v) => Math.round(v)),
      extra: measured.extra,
    });
  return [
    makeFigure({
      id: "native-preview",
      name: preview.name,
      unit: "×",
      bar: "≤ 1.0",
      rule: { method: "p80", combine: "ratio", compare: "<=", limit: 1.0 },
      samples,
    }),
    coldFigure("plugin-cold-start", cold[0]),
    coldFigure("plugin-cold-start-bundle", cold[1]),
  ];
}
