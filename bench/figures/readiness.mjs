// Readiness noticed after the service reports it, at any moment: the
// provider's `create`, in this process, against emulators (each in a process
// of its own, as a service is) whose deployments
// become ready after delays spread across the poll interval and over the
// wait's first minute (k × the interval + an offset from 50 ms to the
// interval − 50 ms, never a multiple of it); per create, the time from the
// emulator's `readyAt` to `create` returning. One figure over every delay ×
// run: its median, and its worst case, which the bar judges.
import { createRequire } from "node:module";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { repoRoot } from "../../scripts/lib/pulumi-env.mjs";
import { startEmulatorProcess } from "../lib/emulator-process.mjs";
import { BARS } from "../lib/bars.mjs";
import { makeFigure } from "../lib/figure.mjs";

// The wait's own intervals (src/client/delays.ts), from the built package.
const { POLL_FAST_INTERVAL_MS, POLL_FAST_PHASE_MS } = createRequire(join(repoRoot, "package.json"))("./dist/client/delays.js");

/** How much later than the poll interval a readiness may be noticed: the poll's round trip and the create's return. */
const SLACK_MS = 100;
const COUNT = 12;
/** The last delay ends this long before the wait's first minute does. */
const PHASE_MARGIN_MS = 2 * POLL_FAST_INTERVAL_MS;

/**
 * COUNT delays: the i-th is k_i × the poll interval + an offset, the offsets
 * evenly from 50 ms to the interval − 50 ms and the k_i evenly from 1 to the
 * last whole interval that leaves PHASE_MARGIN_MS of the first minute.
 */
export const DELAYS_MS = Array.from({ length: COUNT }, (_, i) => {
  const offset = 50 + Math.round((i * (POLL_FAST_INTERVAL_MS - 100)) / (COUNT - 1));
  const lastK = Math.floor((POLL_FAST_PHASE_MS - PHASE_MARGIN_MS) / POLL_FAST_INTERVAL_MS) - 1;
  const k = 1 + Math.round((i * (lastK - 1)) / (COUNT - 1));
  return k * POLL_FAST_INTERVAL_MS + offset;
});

/** Creates start this far apart (their polls then do not all fall due at once). */
const STAGGER_MS = 25;

if (BARS.readiness?.rule.limit !== POLL_FAST_INTERVAL_MS + SLACK_MS) {
  throw new Error(`the readiness bar (bench/lib/bars.mjs) is not the poll interval (${POLL_FAST_INTERVAL_MS} ms) + ${SLACK_MS} ms`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const silent = { forResource: () => ({ info: async () => undefined, warning: async () => undefined, retry: () => undefined }) };

/** An emulator whose deployments are ready after `delay`, and a provider configured for it. */
async function makeSide(ctx, createAgentDynamicProvider, delay) {
  const emulator = await startEmulatorProcess(ctx.repoRoot, { readyAfterMs: delay });
  const provider = createAgentDynamicProvider({ log: silent });
  const settings = { "agent-hosting:baseUrl": emulator.url, "agent-hosting:apiKey": emulator.apiKey };
  await provider.configure({ config: { get: (key) => settings[key] } });
  return { delay, emulator, provider, control: new ctx.pkg.EmulatorControl(emulator.baseUrl) };
}

/** A create of `name` through `side`'s provider; resolves to the moment it returned. */
async function create(side, name) {
  const { inputs } = await side.provider.check({}, { serviceName: name, image: "registry.example.com/bot:1" });
  await side.provider.create(inputs);
  return Date.now();
}

/**
 * One emulator per delay (the emulator's delay is per process), one provider
 * for each, and ctx.pairs creates per delay; every create runs at once, each
 * starting STAGGER_MS after the one before, so the group lasts about the
 * longest delay. Two untimed creates first, against an emulator of its own,
 * load the modules a create and its wait use (as in a provider process that
 * has made a create before; a first create's loading is not readiness).
 */
export async function readinessFigures(ctx) {
  const { createAgentDynamicProvider } = ctx.require("./dist/hosts/dynamic/provider-impl.js");
  ctx.log(`readiness noticed after ready: ${ctx.quick ? 3 : DELAYS_MS.length} delays (poll interval ${POLL_FAST_INTERVAL_MS} ms) × ${ctx.pairs} creates, all at once`);
  const emulators = [];
  try {
    const warm = await makeSide(ctx, createAgentDynamicProvider, POLL_FAST_INTERVAL_MS + 50);
    emulators.push(warm.emulator);
    for (const name of ["ready-warm-0", "ready-warm-1"]) await create(warm, name);
    const sides = [];
    const delays = ctx.quick ? DELAYS_MS.slice(0, 3) : DELAYS_MS;
    for (const delay of delays) {
      sides.push(await makeSide(ctx, createAgentDynamicProvider, delay));
      emulators.push(sides.at(-1).emulator);
    }
    // How late this process's event loop ran while the creates waited: a busy machine shows here first.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = [];
    for (let run = 0; run < ctx.pairs; run++) {
      for (const side of sides) {
        const index = started.length;
        const name = `ready-${side.delay}-${run}`;
        started.push(sleep(index * STAGGER_MS).then(async () => ({ side, name, returned: await create(side, name) })));
      }
    }
    const creates = await Promise.all(started);
    lag.disable();
    const eventLoopDelayMs = { p99: Math.round(lag.percentile(99) / 1e6), max: Math.round(lag.max / 1e6) };
    const perDelay = new Map(delays.map((d) => [d, []]));
    for (const { side, name, returned } of creates) {
      const { agents } = await side.control.listAgents();
      const readyAt = agents.find((a) => a.name === name)?.deployments[0]?.readyAt;
      if (typeof readyAt !== "number") throw new Error(`${name}: the emulator reports no readyAt`);
      perDelay.get(side.delay).push(returned - readyAt);
    }
    const samples = delays.flatMap((d) => perDelay.get(d));
    ctx.log(
      `readiness: per delay, the worst of ${ctx.pairs} runs: ${delays.map((d) => `${d} → ${Math.max(...perDelay.get(d))}`).join(", ")} ms; ` +
        `event loop delay p99 ${eventLoopDelayMs.p99} ms, max ${eventLoopDelayMs.max} ms`,
    );
    return [
      makeFigure({
        id: "readiness",
        name: `readiness noticed after the service reports it, ${delays.length} delays from ${delays[0] / 1000} s to ${delays.at(-1) / 1000} s spread across the ${POLL_FAST_INTERVAL_MS} ms poll interval`,
        unit: "ms",
        samples,
        extra: { delaysMs: delays, pollIntervalMs: POLL_FAST_INTERVAL_MS, runsPerDelay: ctx.pairs, eventLoopDelayMs },
      }),
    ];
  } finally {
    await Promise.all(emulators.map((e) => e.close()));
  }
}
