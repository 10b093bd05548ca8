// One read of every log entry of an agent, in a fresh process so its memory
// is measured alone. Modes: "client" (AgentHostingClient.iterateAgentLogs)
// or "bare" (a bare undici loop over the same pages, JSON.parse only).
// One warm-up pass, then PASSES timed passes; prints the median pass
// { ms, entries, rssGrowthMiB } (RSS growth: peak over all passes).
import { createRequire } from "node:module";
import { join } from "node:path";
import { repoRoot } from "../scripts/lib/pulumi-env.mjs";

const require = createRequire(join(repoRoot, "package.json"));
const [mode, baseUrl, apiKey, agentName, pageSizeText] = process.argv.slice(2);
const pageSize = Number(pageSizeText ?? 1000);
const undici = require("undici");
const { AgentHostingClient } = require("./dist/index.js");

const baseline = process.memoryUsage().rss;
let peak = baseline;
const sample = () => {
  const rss = process.memoryUsage().rss;
  if (rss > peak) peak = rss;
};

async function bare() {
  const agent = new undici.Agent({ keepAliveTimeout: 30_000 });
  const url = new URL(baseUrl);
  let count = 0;
  for (let offset = 0; ; offset += pageSize) {
    const res = await agent.request({
      origin: url.origin,
      path: `${url.pathname}/agents/${agentName}/logs?limit=${pageSize}&offset=${offset}&order=asc`,
      method: "GET",
      headers: { authorization: `Bearer ${apiKey}`, accept: "application/json" },
    });
    const page = JSON.parse(await res.body.text());
    for (const entry of page.logs) if (entry.log) count++;
    sample();
    if (page.logs.length < pageSize) break;
  }
  await agent.close();
  return count;
}

async function client() {
  const c = new AgentHostingClient({ baseUrl, apiKey });
  let count = 0;
  for await (const entry of c.iterateAgentLogs({ agentName, order: "asc", pageSize })) {
    if (entry.log) count++;
    if (count % pageSize === 0) sample();
  }
  await c.close();
  return count;
}

const PASSES = 5;
const readAll = mode === "bare" ? bare : client;
let entries = await readAll(); // warm-up: JIT and connection
const times = [];
for (let pass = 0; pass < PASSES; pass++) {
  const start = performance.now();
  entries = await readAll();
  times.push(performance.now() - start);
}
const ms = times.sort((a, b) => a - b)[Math.floor(PASSES / 2)];
sample();
process.stdout.write(`${JSON.stringify({ ms, entries, rssGrowthMiB: (peak - baseline) / 2 ** 20 })}\n`);
