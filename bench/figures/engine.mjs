// The engine figures of one path (the dynamic provider or the native plugin)
// at one stack size: `pulumi up`, no-op `pulumi preview` and (at the small
// size) `pulumi destroy` of n agents against n Agent-shaped do-nothing
// resources (the control: an Agent's state, none of this package's work)
// and, on the dynamic path, against n trivial dynamic resources (the floor);
// during each up, the requests per agent and the provider process's peak
// memory; at the large size, the provider process's CPU per resource in the
// ups and the previews, against the control's.
//
// Each pair: every side brought up from empty (the first side alternating
// from pair to pair), each previewed twice in mirrored order (a side's time
// is the mean of its two; once in a quick run), then at the small size each
// destroyed. At the
// large size each pair has stacks of its own with names of its own, which
// are never destroyed: a destroy of 400 takes about 35 s a side, and the
// emulator holding the earlier pairs' agents changes nothing it answers.
import { join } from "node:path";
import { makeFigure } from "../lib/figure.mjs";
import { isDynamicProvider, isPlugin, watchProcesses } from "../lib/process-watch.mjs";
import { exportedResources, nativeHome, quiet, stackFor, writeAgentSample } from "../lib/stacks.mjs";
import { mirrored, round, sideOrder, timed } from "../lib/stats.mjs";

/** How long an agent takes to be ready on the shared emulator, and so the controls' create and the trivial floor's. */
export const READY_MS = 2000;

const PATHS = {
  dynamic: {
    prefix: "",
    sides: {
      agents: { program: "agents.cjs", watch: isDynamicProvider },
      shaped: { program: "agent-shaped.cjs", watch: isDynamicProvider, shaped: true },
      trivial: { program: "trivial.cjs", watch: isDynamicProvider, params: { sleepMs: READY_MS } },
    },
    env: async () => ({}),
  },
  native: {
    prefix: "native-",
    sides: {
      agents: { program: "native-agents.cjs", watch: isPlugin("agent-hosting") },
      shaped: { program: "native-shaped.cjs", watch: isPlugin("agent-shaped"), shaped: true },
    },
    env: async (ctx) => {
      ctx.nativeHome ??= await nativeHome(join(ctx.work, "native-home"));
      return { PULUMI_HOME: ctx.nativeHome, PULUMI_IGNORE_AMBIENT_PLUGINS: "true" };
    },
  },
};

const settle = () => globalThis.gc?.();
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** The control's sample of an Agent's state: the state of one untimed up of the path's agents, made once per path. */
async function agentSample(ctx, path, env, opts) {
  const key = `sample-${path}`;
  if (!ctx[key]) {
    const n = ctx.sizes.small;
    const warm = await stackFor(ctx.work, `${path}-warm`, PATHS[path].sides.agents.program, { count: n, prefix: `${path}-warm` }, ctx.emulator, env);
    await warm.stack.up(opts);
    const resources = exportedResources(warm);
    ctx.states[path] = resources;
    ctx[key] = writeAgentSample(ctx.work, resources, path);
    await warm.stack.destroy(opts);
  }
  return ctx[key];
}

/** The figures of `path` at `n` agents, from ctx.pairs pairs (ctx.largePairs at the large size). */
export async function engineFigures(ctx, path, n) {
  const large = n === ctx.sizes.large;
  const pairs = large ? ctx.largePairs : ctx.pairs;
  const { prefix, sides } = PATHS[path];
  const keys = Object.keys(sides);
  ctx.log(`${path} path, ${n} agents: up, preview${large ? "" : ", destroy"} of ${keys.join(" / ")}, parallel ${n}, ${pairs} pairs`);
  const opts = { ...quiet, parallel: n };
  const env = await PATHS[path].env(ctx);
  const sampleFile = await agentSample(ctx, path, env, opts);
  const open = (key, tag) => {
    const side = sides[key];
    const name = `${path}-${n}-${key}${tag}`;
    const params = { count: n, prefix: `${path}-${n}${tag}`, ...side.params, ...(side.shaped && { sampleFile }) };
    const sideEnv = side.shaped ? { ...env, BENCH_AGENT_SAMPLE: sampleFile, BENCH_SHAPED_CREATE_MS: String(READY_MS) } : env;
    return stackFor(ctx.work, name, side.program, params, ctx.emulator, sideEnv);
  };
  let stacks = large ? undefined : Object.fromEntries(await Promise.all(keys.map(async (k) => [k, await open(k, "")])));

  const records = [];
  for (let i = 0; i < pairs; i++) {
    if (large) stacks = Object.fromEntries(await Promise.all(keys.map(async (k) => [k, await open(k, `-p${i}`)])));
    const order = sideOrder(i % 2 === 0, keys);
    const r = { up: {}, preview: {}, destroy: {}, upCpu: {}, previewCpu: {}, peak: {}, requests: 0 };
    for (const key of order) {
      settle();
      const requestsBefore = (await ctx.control.stats()).requests;
      const watch = watchProcesses(sides[key].watch);
      r.up[key] = await timed(() => stacks[key].stack.up(opts));
      const seen = watch.stop();
      r.upCpu[key] = round(seen.cpuMs / n);
      r.peak[key] = seen.peakMiB;
      if (key === "agents") r.requests = round(((await ctx.control.stats()).requests - requestsBefore) / n);
    }
    const previews = Object.fromEntries(keys.map((k) => [k, { ms: [], cpu: [] }]));
    for (const key of mirrored(order, ctx.quick ? 1 : 2)) {
      settle();
      const watch = watchProcesses(sides[key].watch);
      previews[key].ms.push(await timed(() => stacks[key].stack.preview(opts)));
      previews[key].cpu.push(watch.stop().cpuMs / n);
    }
    for (const key of keys) {
      r.preview[key] = round(mean(previews[key].ms));
      r.previewCpu[key] = round(mean(previews[key].cpu));
    }
    if (!large) {
      for (const key of order) {
        settle();
        r.destroy[key] = await timed(() => stacks[key].stack.destroy(opts));
      }
    }
    records.push(r);
    const side = (what) => keys.map((k) => Math.round(r[what][k])).join(" / ");
    ctx.log(
      `${path} ${n} pair ${i + 1}/${pairs} (${keys.join(" / ")}): up ${side("up")} ms, preview ${side("preview")} ms` +
        (large ? "" : `, destroy ${side("destroy")} ms`) +
        `; ${r.requests} requests per agent; provider peak ${side("peak")} MiB; CPU per resource: up ${keys.map((k) => r.upCpu[k]).join(" / ")}, preview ${keys.map((k) => r.previewCpu[k]).join(" / ")} ms`,
    );
  }

  const versus = (what, baseline) => records.map((r) => ({ subject: r[what].agents, baseline: r[what][baseline] }));
  const id = (family) => `${prefix}${family}-${n}`;
  const who = path === "native" ? "native plugin" : "dynamic provider";
  const figures = [];
  for (const op of large ? ["up", "preview"] : ["up", "preview", "destroy"]) {
    const what = op === "preview" ? "no-op pulumi preview" : `pulumi ${op}`;
    figures.push(makeFigure({ id: id(`${op}-control`), name: `${who}: ${what} of ${n} agents / of ${n} Agent-shaped resources`, unit: "×", samples: versus(op, "shaped") }));
    if (keys.includes("trivial")) {
      figures.push(makeFigure({ id: id(`${op}-floor`), name: `${who}: ${what} of ${n} agents / of ${n} trivial resources`, unit: "×", samples: versus(op, "trivial") }));
    }
  }
  figures.push(
    makeFigure({ id: id("requests-up"), name: `${who}: requests to the service per agent, pulumi up of ${n} agents ready after 2 s`, unit: "", samples: records.map((r) => r.requests) }),
    makeFigure({
      id: id("memory"),
      name: `${who}: peak RSS of the provider process in pulumi up of ${n} agents / the control's`,
      unit: "×",
      samples: versus("peak", "shaped"),
    }),
  );
  if (large) {
    for (const [op, what] of [["up", "upCpu"], ["preview", "previewCpu"]]) {
      figures.push(
        makeFigure({
          id: id(`cpu-${op}`),
          name: `${who}: provider process CPU per resource in ${op === "up" ? "pulumi up" : "a no-op pulumi preview"} of ${n} agents / the control's`,
          unit: "×",
          samples: versus(what, "shaped"),
        }),
      );
    }
  }
  return figures;
}
