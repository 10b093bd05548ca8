// Bytes, which are the same on every run, so each is one measurement:
// - the serialized provider each Agent carries in the state (the largest of
//   the dynamic group's stack), after the implementation grew by 256 KiB of
//   code that `create` calls (0 more bytes), and the control: a provider
//   that captures its implementation, whose size grows by all of it;
// - the state an Agent adds to `pulumi stack export`: the average record of
//   that stack's Agents (inputs, outputs and the engine's own fields), a
//   trivial dynamic resource's beside it, and how many objects of 64 bytes
//   or more an Agent's record stores twice.
import { join } from "node:path";
import { GROWTH_BYTES } from "../lib/bars.mjs";
import { makeFigure } from "../lib/figure.mjs";
import { growImplementation } from "../lib/grow-implementation.mjs";
import { exportedResources, providerBytes, quiet, stackFor } from "../lib/stacks.mjs";
import { round } from "../lib/stats.mjs";

const bytes = (value) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));
const average = (values) => round(values.reduce((a, b) => a + b, 0) / values.length, 1);

/** The resources of a stack of `programFile` brought up, exported and destroyed. */
async function stateOf(ctx, name, programFile, params) {
  const handle = await stackFor(ctx.work, name, programFile, params, ctx.emulator);
  await handle.stack.up({ ...quiet, parallel: params.count });
  const resources = exportedResources(handle);
  await handle.stack.destroy({ ...quiet, parallel: params.count });
  return resources;
}

/** A record's bytes in the export (compact JSON), and its inputs', outputs' and the engine's own fields' share. */
function recordBytes(records) {
  const total = average(records.map(bytes));
  const inputs = average(records.map((r) => bytes(r.inputs)));
  const outputs = average(records.map((r) => bytes(r.outputs)));
  return { total, inputs, outputs, engine: round(total - inputs - outputs, 1) };
}

/** The objects and arrays of at least 64 bytes of JSON that occur more than once in `record`. */
export function storedTwice(record) {
  const seen = new Map();
  const walk = (value) => {
    if (value === null || typeof value !== "object") return;
    const text = JSON.stringify(value);
    if (text.length >= 64) seen.set(text, (seen.get(text) ?? 0) + 1);
    for (const child of Object.values(value)) walk(child);
  };
  walk(record);
  return [...seen].filter(([, count]) => count > 1).map(([text]) => text.slice(0, 80));
}

export async function sizeFigures(ctx) {
  const state = ctx.states.dynamic;
  if (!state) throw new Error("the size figures read the dynamic group's stack, which did not come up");
  const agents = state.filter((r) => r.type.endsWith(":Agent"));
  const provider = providerBytes(agents);
  const n = agents.length;

  ctx.log(`state bytes: ${n} trivial resources`);
  const trivial = (await stateOf(ctx, "size-trivial", "trivial.cjs", { count: n, sleepMs: 0 })).filter((r) => r.type.endsWith(":Sleeper"));

  ctx.log("serialized provider: 1 agent, the implementation grown by 256 KiB of code that create calls");
  const grown = growImplementation(ctx.repoRoot, GROWTH_BYTES, join(ctx.work, "growth-called"));
  let grownBytes;
  let called;
  try {
    [grownBytes] = providerBytes(await stateOf(ctx, "size-grown", "agents.cjs", { count: 1, prefix: "size-grown" }));
    called = grown.called();
  } finally {
    grown.restore();
  }
  if (!called) throw new Error("the grown implementation's create never ran its added code; the figure would measure nothing");
  ctx.log("control: a provider that captures its implementation, before and after 256 KiB more");
  const [small] = providerBytes(await stateOf(ctx, "size-captured", "captured-provider.cjs", { count: 1, tableBytes: 0 }));
  const [big] = providerBytes(await stateOf(ctx, "size-captured-grown", "captured-provider.cjs", { count: 1, tableBytes: GROWTH_BYTES }));

  const agent = recordBytes(agents);
  const twice = storedTwice(agents[0]);
  return [
    makeFigure({ id: "provider-bytes", name: `serialized provider, largest of ${n} agents`, unit: "bytes", samples: [Math.max(...provider)] }),
    makeFigure({
      id: "provider-bytes-grown",
      name: "serialized provider growth after create's code grew by 256 KiB",
      unit: "bytes",
      samples: [{ subject: grownBytes, baseline: Math.max(...provider) }],
      extra: { addedCodeBytes: grown.addedBytes, grownCodeCalled: called },
    }),
    makeFigure({
      id: "provider-bytes-control",
      name: "control: growth of a provider that captures its implementation, after it grew by 256 KiB",
      unit: "bytes",
      samples: [{ subject: big, baseline: small }],
    }),
    makeFigure({
      id: "state-bytes",
      name: `state per Agent in pulumi stack export (inputs, outputs, the engine's fields), average of ${n}`,
      unit: "bytes",
      samples: [agent.total],
      extra: { parts: agent },
    }),
    makeFigure({
      id: "state-bytes-trivial",
      name: `state per trivial dynamic resource in pulumi stack export, average of ${n}`,
      unit: "bytes",
      samples: [recordBytes(trivial).total],
      extra: { parts: recordBytes(trivial) },
    }),
    makeFigure({ id: "state-duplicates", name: "objects of 64 bytes or more an Agent's state record stores twice", unit: "", samples: [twice.length], extra: { storedTwice: twice } }),
  ];
}
