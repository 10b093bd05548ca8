#!/usr/bin/env node
// npm run bench: the quality bars of design section 9, measured side by side
// in one run with the real engine and the real emulator, nothing mocked.
// Writes bench/results.json and the README's bench table. Method: bench/README.md.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pulumiCliDir, repoRoot } from "../scripts/lib/pulumi-env.mjs";
import { freshRequire, openStack } from "../scripts/lib/stack.mjs";
import { machineFacts, table, writeResults } from "./lib/report.mjs";
import { median, round, spread, timed } from "./lib/stats.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const AGENTS = 50;
const require = createRequire(join(repoRoot, "package.json"));
const { startEmulator, EmulatorControl, AgentHostingClient } = require("./dist/index.js");
const log = (text) => process.stderr.write(`[bench] ${text}\n`);
const work = join(repoRoot, ".e2e-work", `bench-${Date.now().toString(36)}`);
const figures = [];

function figure(name, values, unit, bar, passes, extra = {}) {
  const m = round(median(values));
  const f = { name, unit, bar, runs: values.map((v) => round(v)), median: m, spread: round(spread(values)), pass: passes(m), ...extra };
  figures.push(f);
  log(`${name}: ${m}${unit ? ` ${unit}` : ""} (${f.pass ? "pass" : "FAIL"}, bar ${bar})`);
  return f;
}

async function stackFor(name, programFile, params, emulator) {
  return openStack({
    workDir: join(work, name),
    stackName: "bench",
    projectName: `bench-${name}`,
    program: async () => freshRequire(join(repoRoot, "bench/programs", programFile))(params),
    config: {
      "agent-hosting:baseUrl": emulator.url,
      "agent-hosting:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
}

function exportedProviderBytes(handle) {
  const text = execFileSync("pulumi", ["stack", "export", "--stack", "bench"], {
    cwd: handle.stack.workspace.workDir,
    env: { ...process.env, ...handle.envVars },
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  const resources = JSON.parse(text).deployment.resources ?? [];
  return resources
    .filter((r) => r.type === "pulumi-nodejs:dynamic/agent-hosting:Agent")
    .map((r) => Buffer.byteLength(String(r.inputs?.__provider ?? r.outputs?.__provider ?? "")));
}

const quiet = { onOutput: () => undefined };

async function benchSerializedProvider(emulator) {
  log("serialized provider size: 1 and 50 agents, then with a grown implementation");
  const one = await stackFor("size-1", "agents.cjs", { count: 1, prefix: "size-one" }, emulator);
  await one.stack.up(quiet);
  const bytesOne = exportedProviderBytes(one);
  await one.stack.destroy(quiet);
  const fifty = await stackFor("size-50", "agents.cjs", { count: AGENTS, prefix: "size-fifty" }, emulator);
  await fifty.stack.up({ ...quiet, parallel: AGENTS });
  const bytesFifty = exportedProviderBytes(fifty);
  await fifty.stack.destroy({ ...quiet, parallel: AGENTS });
  const implFile = join(repoRoot, "dist/provider/implementation.js");
  const original = readFileSync(implFile, "utf8");
  const growth = `\nfunction __benchGrowth(){return ${JSON.stringify("x".repeat(256 * 1024))}.length;}\n`;
  let bytesGrown;
  try {
    writeFileSync(implFile, original + growth);
    const grown = await stackFor("size-grown", "agents.cjs", { count: 1, prefix: "size-grown" }, emulator);
    await grown.stack.up(quiet);
    bytesGrown = exportedProviderBytes(grown);
    await grown.stack.destroy(quiet);
  } finally {
    writeFileSync(implFile, original);
  }
  figure("serialized provider per resource, 1 agent", bytesOne, "bytes", "≤ 4096", (m) => m <= 4096);
  figure("serialized provider per resource, 50 agents", bytesFifty, "bytes", "≤ 4096", (m) => m <= 4096);
  figure(
    "serialized provider after the implementation grew by 256 KiB",
    bytesGrown,
    "bytes",
    "= the 1-agent size",
    (m) => m === median(bytesOne),
  );
}

async function benchEngine(emulator) {
  log(`pulumi up and no-op preview: ${AGENTS} agents (ready after 2 s) vs ${AGENTS} trivial resources sleeping 2 s, parallel ${AGENTS}`);
  const agents = await stackFor("up-agents", "agents.cjs", { count: AGENTS, prefix: "up" }, emulator);
  const trivial = await stackFor("up-trivial", "trivial.cjs", { count: AGENTS, sleepMs: 2000 }, emulator);
  const sized = await stackFor("up-sized", "trivial-agent-sized.cjs", { count: AGENTS }, emulator);
  await sized.stack.up({ ...quiet, parallel: AGENTS });
  const opts = { ...quiet, parallel: AGENTS };
  const up = { agents: [], trivial: [] };
  const preview = { agents: [], trivial: [], sized: [] };
  for (let run = 0; run < RUNS; run++) {
    up.trivial.push((await timed(() => trivial.stack.up(opts))).ms);
    up.agents.push((await timed(() => agents.stack.up(opts))).ms);
    preview.trivial.push((await timed(() => trivial.stack.preview(opts))).ms);
    preview.agents.push((await timed(() => agents.stack.preview(opts))).ms);
    preview.sized.push((await timed(() => sized.stack.preview(opts))).ms);
    await trivial.stack.destroy(opts);
    await agents.stack.destroy(opts);
    log(`run ${run + 1}: up ${Math.round(up.agents[run])} vs ${Math.round(up.trivial[run])} ms, preview ${Math.round(preview.agents[run])} vs ${Math.round(preview.trivial[run])} ms`);
  }
  const ratios = (pair) => pair.agents.map((a, i) => a / pair.trivial[i]);
  figure(`pulumi up of ${AGENTS} agents / ${AGENTS} trivial 2 s resources`, ratios(up), "×", "≤ 1.25", (m) => m <= 1.25, {
    agentsMs: up.agents.map(Math.round),
    trivialMs: up.trivial.map(Math.round),
  });
  figure(`no-op pulumi preview of ${AGENTS} agents / trivial stack`, ratios(preview), "×", "≤ 1.25", (m) => m <= 1.25, {
    agentsMs: preview.agents.map(Math.round),
    trivialMs: preview.trivial.map(Math.round),
  });
  figure(
    `control: no-op preview of ${AGENTS} agents / ${AGENTS} do-nothing resources with an Agent's inputs and outputs`,
    preview.agents.map((a, i) => a / preview.sized[i]),
    "×",
    "≈ 1 (the provider's own cost)",
    (m) => m <= 1.1,
    { sizedMs: preview.sized.map(Math.round) },
  );
  await sized.stack.destroy(opts);
}

async function benchLogs(emulator, control) {
  const entries = 100_000;
  log(`iterateAgentLogs over ${entries} entries in pages of 1000 vs a bare undici loop`);
  const client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
  await client.createAgent({ serviceName: "logs-bench", image: "registry.example.com/bot:1" });
  await client.close();
  await control.appendLogs("logs-bench", entries - 4, { prefix: "session event" });
  // Asynchronous: the emulator answers from this very process.
  const worker = (mode) =>
    new Promise((resolve, reject) => {
      const args = [join(repoRoot, "bench/logs-worker.mjs"), mode, emulator.url, emulator.apiKey, "logs-bench", "1000"];
      const child = spawn(process.execPath, args);
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      child.on("close", (code) =>
        code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop())) : reject(new Error(`logs worker failed: ${err}`)),
      );
    });
  await worker("bare"); // warm the emulator's path once
  const client_ = [];
  const bare = [];
  for (let run = 0; run < RUNS; run++) {
    bare.push(await worker("bare"));
    client_.push(await worker("client"));
  }
  const total = client_[0].entries;
  figure(
    `iterateAgentLogs ${total} entries / bare undici loop`,
    client_.map((c, i) => c.ms / bare[i].ms),
    "×",
    "≤ 1.15",
    (m) => m <= 1.15,
    { clientMs: client_.map((c) => Math.round(c.ms)), bareMs: bare.map((b) => Math.round(b.ms)), entries: total },
  );
  figure(
    "iterateAgentLogs peak RSS growth",
    client_.map((c) => c.rssGrowthMiB),
    "MiB",
    "flat: ≤ 2 × the bare loop's + 16 MiB",
    (m) => m <= 2 * median(bare.map((b) => b.rssGrowthMiB)) + 16,
    { bareMiB: bare.map((b) => round(b.rssGrowthMiB, 1)) },
  );
}

async function benchConnections(emulator, control) {
  log("TCP connections for 200 sequential client calls");
  const setup = new AgentHostingClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
  await setup.createAgent({ serviceName: "conn-bench", image: "registry.example.com/bot:1" });
  await setup.close();
  const values = [];
  for (let run = 0; run < RUNS; run++) {
    const client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
    const before = (await control.stats()).apiConnections;
    for (let i = 0; i < 200; i++) await client.getAgent("conn-bench");
    values.push((await control.stats()).apiConnections - before);
    await client.close();
  }
  figure("TCP connections the emulator saw for 200 sequential calls of one client", values, "", "1", (m) => m === 1 && Math.max(...values) === 1);
}

async function benchReadiness() {
  log("readiness latency: emulator marks ready → create returns");
  const delays = [500, 2000, 5000];
  const impl = require("./dist/provider/implementation.js");
  const latencies = [];
  const perDelay = {};
  for (const delay of delays) {
    const emulator = await startEmulator({ port: 0, readyAfterMs: delay });
    const control = new EmulatorControl(emulator.baseUrl);
    process.env.AGENT_HOSTING_API_KEY = emulator.apiKey;
    process.env.AGENT_HOSTING_BASE_URL = emulator.url;
    await impl.configure(undefined);
    perDelay[delay] = [];
    for (let run = 0; run < RUNS; run++) {
      const name = `ready-${delay}-${run}`;
      const { inputs } = await impl.check({}, { serviceName: name, image: "registry.example.com/bot:1" });
      await impl.create(inputs);
      const returned = Date.now();
      const { agents } = await control.listAgents();
      const readyAt = agents.find((a) => a.name === name).deployments[0].readyAt;
      latencies.push(returned - readyAt);
      perDelay[delay].push(returned - readyAt);
    }
    await emulator.close();
  }
  delete process.env.AGENT_HOSTING_API_KEY;
  delete process.env.AGENT_HOSTING_BASE_URL;
  figure("readiness noticed after the service reports it", latencies, "ms", "≤ 1000", (m) => Math.max(...latencies) <= 1000 && m <= 1000, {
    byReadyAfterMs: perDelay,
  });
}

const cliDir = pulumiCliDir();
process.env.PATH = `${cliDir}:${process.env.PATH}`;
const pulumiVersion = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
const emulator = await startEmulator({ port: 0, readyAfterMs: 2000 });
const control = new EmulatorControl(emulator.baseUrl);
try {
  await benchSerializedProvider(emulator);
  await benchEngine(emulator);
  await benchLogs(emulator, control);
  await benchConnections(emulator, control);
} finally {
  await emulator.close();
}
await benchReadiness();
rmSync(work, { recursive: true, force: true });

const results = {
  generatedAt: new Date().toISOString(),
  runs: RUNS,
  machine: machineFacts(pulumiVersion),
  allPass: figures.every((f) => f.pass),
  figures,
};
writeResults(repoRoot, results);
console.log(table(figures));
process.exit(results.allPass ? 0 : 1);
