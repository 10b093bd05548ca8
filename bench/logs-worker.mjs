// One read of every log entry of an agent, in a fresh process so its memory
// is measured alone. Modes: "client" (AgentHostingClient.iterateAgentLogs)
// or "bare" (a bare undici loop over the same pages, JSON.parse only).
// Prints { ms, entries, rssGrowthMiB }.
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

const start = performance.now();
const entries = mode === "bare" ? await bare() : await client();
const ms = performance.now() - start;
sample();
process.stdout.write(`${JSON.stringify({ ms, entries, rssGrowthMiB: (peak - baseline) / 2 ** 20 })}\n`);
