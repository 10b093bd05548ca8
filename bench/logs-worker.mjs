// One client of the log reading figure (bench/figures/logs.mjs), in a fresh
// process so its memory is measured alone. Modes: "client"
// (AgentHostingClient.iterateAgentLogs) or "bare" (a bare undici loop over
// the same pages, JSON.parse only). Reads every entry once to warm up and
// prints { ready: true }; then each "pass" line on stdin is one timed read,
// answered with { ms, entries }, so the figure can alternate the reads of
// the two sides; at "end" (or when stdin closes) it prints
// { rssGrowthMiB } (peak over every read) and exits.
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";
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

const readAll = mode === "bare" ? bare : client;
const say = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
await readAll();
say({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== "pass") break;
  const start = performance.now();
  const entries = await readAll();
  say({ ms: performance.now() - start, entries });
}
sample();
say({ rssGrowthMiB: (peak - baseline) / 2 ** 20 });
