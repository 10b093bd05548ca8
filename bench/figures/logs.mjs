// Reading 100 001 log entries through the client against a bare undici loop
// over the same pages, each side in a fresh process (bench/logs-worker.mjs),
// as interleaved pairs: time ratio and peak memory growth.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { declaredFigure, ruleTable } from "../lib/rules.mjs";
import { interleavedPairs } from "../lib/stats.mjs";

const ENTRIES = 100_000;
const AGENT = "logs-bench";

/**
 * Memory flat: the client's peak RSS growth at most MEMORY_FACTOR × the bare
 * loop's + MEMORY_ALLOWANCE_MIB (the page it reads ahead, the client and zod
 * loaded); per pair, client − (1.25 × bare + 8) ≤ 0.
 */
const MEMORY_FACTOR = 1.25;
const MEMORY_ALLOWANCE_MIB = 8;

/** The rule and the bar of every figure this module makes, by id (bench/lib/rules.mjs). */
export const RULES = ruleTable({
  logs: { bar: "≤ 1.15", rule: { method: "p80", combine: "ratio", compare: "<=", limit: 1.15 } },
  "logs-memory": {
    bar: `≤ 0 (memory flat: at most ${MEMORY_FACTOR} × the bare loop's growth + ${MEMORY_ALLOWANCE_MIB} MiB)`,
    rule: { method: "p80", combine: "overScaledBaseline", factor: MEMORY_FACTOR, allowance: MEMORY_ALLOWANCE_MIB, compare: "<=", limit: 0 },
  },
});

function worker(ctx, mode) {
  return new Promise((resolve, reject) => {
    const args = [join(ctx.repoRoot, "bench/logs-worker.mjs"), mode, ctx.emulator.url, ctx.emulator.apiKey, AGENT, "1000"];
    const child = spawn(process.execPath, args);
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop())) : reject(new Error(`logs worker (${mode}) failed: ${err}`)),
    );
  });
}

export async function logFigures(ctx) {
  ctx.log(`iterateAgentLogs over ${ENTRIES} entries in pages of 1000 vs a bare undici loop, ${ctx.pairs} pairs`);
  const client = new ctx.pkg.AgentHostingClient({ baseUrl: ctx.emulator.url, apiKey: ctx.emulator.apiKey });
  await client.createAgent({ serviceName: AGENT, image: "registry.example.com/bot:1" });
  await client.close();
  await ctx.control.appendLogs(AGENT, ENTRIES - 4, { prefix: "session event" });
  await worker(ctx, "bare"); // warms the emulator's path once
  const runs = { client: [], bare: [] };
  const run = async (mode) => {
    const result = await worker(ctx, mode);
    runs[mode].push(result);
    return result;
  };
  const timeSamples = await interleavedPairs(
    ctx.pairs,
    async () => (await run("client")).ms,
    async () => (await run("bare")).ms,
    (s, i) => ctx.log(`logs pair ${i + 1}/${ctx.pairs}: ${Math.round(s.subject)} vs ${Math.round(s.baseline)} ms`),
  );
  const memorySamples = runs.client.map((c, i) => ({
    subject: Math.round(c.rssGrowthMiB * 1000) / 1000,
    baseline: Math.round(runs.bare[i].rssGrowthMiB * 1000) / 1000,
  }));
  const entries = runs.client[0].entries;
  if (runs.client.some((c) => c.entries !== entries) || runs.bare.some((b) => b.entries !== entries)) {
    throw new Error("the client and the bare loop read different numbers of entries");
  }
  return [
    declaredFigure(RULES, {
      id: "logs",
      name: `iterateAgentLogs over ${entries} entries / bare undici loop`,
      unit: "×",
      samples: timeSamples,
      extra: { entries },
    }),
    declaredFigure(RULES, {
      id: "logs-memory",
      name: `iterateAgentLogs peak RSS growth − (${MEMORY_FACTOR} × the bare loop's + ${MEMORY_ALLOWANCE_MIB} MiB)`,
      unit: "MiB",
      samples: memorySamples,
    }),
  ];
}
