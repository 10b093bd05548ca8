// Size of the serialized provider each Agent carries in the state: with 1
// and 50 agents, after the implementation grew by 256 KiB of code that
// `create` calls, and the control, a provider that captures its
// implementation, whose size does grow. Each is one measurement: the bytes
// are the same on every run.
import { join } from "node:path";
import { declaredFigure, ruleTable } from "../lib/rules.mjs";
import { growImplementation } from "../lib/grow-implementation.mjs";
import { providerBytes, quiet, stackFor } from "../lib/stacks.mjs";
import { derive } from "../lib/stats.mjs";

const GROWTH = 256 * 1024;
const LIMIT = 4096;

const atMost4k = { bar: `≤ ${LIMIT}`, rule: { method: "single", combine: "value", compare: "<=", limit: LIMIT } };
const unchanged = { method: "single", combine: "difference", compare: "==", limit: 0 };

/** The rule and the bar of every figure this module makes, by id (bench/lib/rules.mjs). */
export const RULES = ruleTable({
  "size-1": atMost4k,
  "size-50": atMost4k,
  "size-grown": { bar: "0 (the state does not carry the implementation)", rule: unchanged },
  "size-control": {
    bar: `≥ ${GROWTH} (the measurement sees captured code)`,
    rule: { method: "single", combine: "difference", compare: ">=", limit: GROWTH },
  },
});

async function measure(ctx, name, programFile, params, parallel = 1) {
  const handle = await stackFor(ctx.work, name, programFile, params, ctx.emulator);
  await handle.stack.up({ ...quiet, parallel });
  const bytes = providerBytes(handle);
  await handle.stack.destroy({ ...quiet, parallel });
  if (bytes.length !== (params.count ?? 1)) throw new Error(`${name}: ${bytes.length} serialized providers in state, expected ${params.count}`);
  return bytes;
}

export async function sizeFigures(ctx) {
  ctx.log("serialized provider: 1 agent");
  const [one] = await measure(ctx, "size-1", "agents.cjs", { count: 1, prefix: "size-one" });
  ctx.log(`serialized provider: ${ctx.agents} agents`);
  const fifty = await measure(ctx, "size-50", "agents.cjs", { count: ctx.agents, prefix: "size-fifty" }, ctx.agents);

  ctx.log("serialized provider: 1 agent, implementation grown by 256 KiB of code that create calls");
  const grown = growImplementation(ctx.repoRoot, GROWTH, join(ctx.work, "growth-called"));
  let grownBytes;
  let called;
  try {
    [grownBytes] = await measure(ctx, "size-grown", "agents.cjs", { count: 1, prefix: "size-grown" });
    called = grown.called();
  } finally {
    grown.restore();
  }
  if (!called) throw new Error("the grown implementation's create never ran its added code; the figure would measure nothing");

  ctx.log("control: a provider that captures its implementation, before and after 256 KiB more");
  const [small] = await measure(ctx, "size-captured", "captured-provider.cjs", { count: 1, tableBytes: 0 });
  const [big] = await measure(ctx, "size-captured-grown", "captured-provider.cjs", { count: 1, tableBytes: GROWTH });

  const controlSample = { subject: big, baseline: small };
  return [
    declaredFigure(RULES, { id: "size-1", name: "serialized provider, 1 agent", unit: "bytes", samples: [one] }),
    declaredFigure(RULES, {
      id: "size-50",
      name: `serialized provider, largest of ${ctx.agents} agents`,
      unit: "bytes",
      samples: [Math.max(...fifty)],
      extra: { distinctSizes: [...new Set(fifty)] },
    }),
    declaredFigure(RULES, {
      id: "size-grown",
      name: "serialized provider growth after create's code grew by 256 KiB",
      unit: "bytes",
      samples: [{ subject: grownBytes, baseline: one }],
      extra: { addedCodeBytes: grown.addedBytes, grownCodeCalled: called },
    }),
    declaredFigure(RULES, {
      id: "size-control",
      name: "control: growth of a provider that captures its implementation, after it grew by 256 KiB",
      unit: "bytes",
      samples: [controlSample],
      extra: { providerBarOnControl: derive(unchanged, [controlSample]).pass ? "pass" : "FAIL" },
    }),
  ];
}
