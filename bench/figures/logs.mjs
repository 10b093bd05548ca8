// Reading 100 001 log entries through the client against a bare undici loop
// over the same pages, each side in a fresh process (bench/logs-worker.mjs),
// as pairs whose timed reads alternate between the sides: time ratio and
// peak memory growth.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { makeFigure } from "../lib/figure.mjs";
import { median, mirrored, round, sideOrder } from "../lib/stats.mjs";

const AGENT = "logs-bench";

/**
 * Timed reads a side makes in a pair (3 in a quick run); a side's time is
 * their median. The reads of the two sides alternate in mirrored order
 * (A B B A ...), so a slow spell of the machine falls on both.
 */
const READS_PER_SIDE = 7;

/**
 * A logs worker driven line by line: `read()` asks for one timed read,
 * `end()` for its memory, `stop()` ends it if it still runs (a pair that
 * failed leaves no worker behind during the groups after it).
 */
function startWorker(ctx, mode) {
  const args = [join(ctx.repoRoot, "bench/logs-worker.mjs"), mode, ctx.emulator.url, ctx.emulator.apiKey, AGENT, "1000"];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await answers.next();
    if (done) throw new Error(`logs worker (${mode}) stopped without an answer: ${err}`);
    return JSON.parse(value);
  };
  return {
    ready: next(),
    read: () => (child.stdin.write("pass\n"), next()),
    end: async () => {
      const closed = once(child, "close");
      child.stdin.end("end\n");
      const last = await next();
      const [code] = await closed;
      if (code !== 0) throw new Error(`logs worker (${mode}) exited with ${code}: ${err}`);
      return last;
    },
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

/**
 * One pair: both workers warmed up one after the other, then their reads
 * alternated. Per side, its median read (`ms`), its memory growth and the
 * entries each read counted.
 */
async function logsPair(ctx, first, reads) {
  const started = [];
  const start = async (mode) => {
    const worker = startWorker(ctx, mode);
    started.push(worker);
    await worker.ready;
    return worker;
  };
  try {
    const workers = { client: await start("client"), bare: await start("bare") };
    const answers = { client: [], bare: [] };
    for (const side of mirrored(sideOrder(first, ["client", "bare"]), reads)) answers[side].push(await workers[side].read());
    const side = async (name) => ({
      ms: median(answers[name].map((r) => r.ms)),
      rssGrowthMiB: (await workers[name].end()).rssGrowthMiB,
      entries: answers[name].map((r) => r.entries),
    });
    return { first, client: await side("client"), bare: await side("bare") };
  } finally {
    for (const worker of started) worker.stop();
  }
}

export async function logFigures(ctx) {
  const entriesWanted = ctx.quick ? 10_000 : 100_000;
  const reads = ctx.quick ? 3 : READS_PER_SIDE;
  ctx.log(`iterateAgentLogs over ${entriesWanted} entries in pages of 1000 vs a bare undici loop, ${ctx.pairs} pairs`);
  const client = new ctx.pkg.AgentHostingClient({ baseUrl: ctx.emulator.url, apiKey: ctx.emulator.apiKey });
  await client.createAgent({ serviceName: AGENT, image: "registry.example.com/bot:1" });
  // The emulator logs the deployment's readiness when it comes: every read starts after it, so all read the same entries.
  while (!(await client.getAgent(AGENT)).ready) await new Promise((resolve) => setTimeout(resolve, 100));
  await client.close();
  await ctx.control.appendLogs(AGENT, entriesWanted - 4, { prefix: "session event" });
  const pairs = [];
  for (let i = 0; i < ctx.pairs; i++) {
    const pair = await logsPair(ctx, i % 2 === 0, reads);
    pairs.push(pair);
    ctx.log(`logs pair ${i + 1}/${ctx.pairs}: ${Math.round(pair.client.ms)} vs ${Math.round(pair.bare.ms)} ms (median of ${reads} reads a side)`);
  }
  const counted = new Set(pairs.flatMap((p) => [...p.client.entries, ...p.bare.entries]));
  if (counted.size !== 1) throw new Error(`the client and the bare loop read different numbers of entries: ${[...counted].join(", ")}`);
  const [entries] = counted;
  const timeSamples = pairs.map((p) => ({ subject: round(p.client.ms), baseline: round(p.bare.ms) }));
  const memorySamples = pairs.map((p) => ({ subject: round(p.client.rssGrowthMiB), baseline: round(p.bare.rssGrowthMiB) }));
  return [
    makeFigure({
      id: "logs",
      name: `iterateAgentLogs over ${entries} entries / bare undici loop`,
      unit: "×",
      samples: timeSamples,
      extra: { entries },
    }),
    makeFigure({
      id: "logs-memory",
      name: "iterateAgentLogs peak RSS growth − (1.25 × the bare loop's + 8 MiB)",
      unit: "MiB",
      samples: memorySamples,
    }),
  ];
}
