#!/usr/bin/env node
// npm run profile: where an operation's CPU time goes, the agents against
// their control, one operation each, with the real CLI and the emulator in
// a process of its own, as in the bench. PROFILE_HOST picks the provider:
// `dynamic` (default), the dynamic provider against the Agent-shaped control
// (bench/programs/agent-shaped.cjs); `native`, the native plugin installed
// from its tarball against the native control plugin
// (bench/programs/native-shaped-plugin.cjs), as the native figures run them.
// Prints, per side: the wall time; the CPU time of the engine, the provider
// process (the dynamic provider or the plugin), the emulator and this
// process (which runs the inline program); the provider process's self time
// by package and by function (a V8 CPU profile, bench/lib/provider-profiler.cjs),
// and by phase (bench/lib/provider-phases.mjs), then the two sides' phases
// and the provider process's CPU ms per resource side by side; this
// process's self time (the inline program and the Automation API), from
// node:inspector; and the engine's cumulative profile (`pulumi <command> --profiling`, read with
// `go tool pprof -top -cum` when Go is installed). The profiles stay in the
// printed directory. Timings under a profiler run slower: compare the two
// sides, not these numbers with the bench's.
//
// Environment: PROFILE_OP (up, preview or destroy; default up),
// PROFILE_AGENTS (default 400) and PROFILE_HOST (dynamic or native; default dynamic).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { pulumiCliDir, repoRoot } from "../scripts/lib/pulumi-env.mjs";
import { phaseTimes, summarizeProfile } from "./lib/cpu-profile.mjs";
import { installControlPlugin } from "./lib/native-control.mjs";
import { dynamicProviderPhases, nativePluginPhases } from "./lib/provider-phases.mjs";
import { startEmulatorProcess } from "./lib/emulator-process.mjs";
import { settle, writeAgentSample } from "./lib/engine-stacks.mjs";
import { watchProcessCpu } from "./lib/process-cpu.mjs";
import { quiet, stackFor } from "./lib/stacks.mjs";
import { homeWithPlugin } from "./native.mjs";

const OPS = ["up", "preview", "destroy"];
const HOSTS = ["dynamic", "native"];
const op = process.env.PROFILE_OP ?? "up";
const n = Number(process.env.PROFILE_AGENTS ?? 400);
const host = process.env.PROFILE_HOST ?? "dynamic";
if (!OPS.includes(op)) throw new Error(`PROFILE_OP must be one of ${OPS.join(", ")}, got "${op}"`);
if (!HOSTS.includes(host)) throw new Error(`PROFILE_HOST must be one of ${HOSTS.join(", ")}, got "${host}"`);
if (!Number.isInteger(n) || n < 1) throw new Error(`PROFILE_AGENTS must be a positive integer, got "${process.env.PROFILE_AGENTS}"`);

const cliDir = pulumiCliDir();
process.env.PATH = `${cliDir}:${process.env.PATH}`;
const stamp = Date.now().toString(36);
const work = join(repoRoot, ".e2e-work", `profile-${stamp}`);
const out = join(repoRoot, ".e2e-work", `profiles-${stamp}`);
const log = (text) => process.stderr.write(`[profile] ${text}\n`);

/** The native sides' env: a PULUMI_HOME with our plugin and the control plugin installed from their tarballs, as the native figures run them (bench/figures/native.mjs). */
async function nativeEnv() {
  const dir = join(work, "native-home");
  const home = homeWithPlugin(dir);
  await installControlPlugin(home, join(dir, "control"));
  return { PULUMI_HOME: home, PULUMI_IGNORE_AMBIENT_PLUGINS: "true" };
}

/**
 * Each host's programs (bench/programs/) for the agents and for their
 * control, the env both sides run with, and the phases its provider
 * process's profile splits into (bench/lib/provider-phases.mjs).
 */
const HOST_SIDES = {
  dynamic: {
    agents: "agents.cjs",
    shaped: "agent-shaped.cjs",
    control: "Agent-shaped resources",
    env: async () => ({}),
    phases: dynamicProviderPhases(repoRoot),
  },
  native: {
    agents: "native-agents.cjs",
    shaped: "native-shaped.cjs",
    control: "resources of the native control plugin",
    env: nativeEnv,
    phases: nativePluginPhases,
  },
};
const sides = HOST_SIDES[host];

/** The stack env that makes the provider process record its profile into `dir`. */
const profiled = (dir) => ({ NODE_OPTIONS: `--require ${join(repoRoot, "bench/lib/provider-profiler.cjs")}`, AGENT_HOSTING_PROFILE_DIR: dir });

/** Adds `--profiling <prefix>` to the stack's `op` command until the returned function is called. */
function profileEngine(handle, prefix) {
  const command = handle.stack.workspace.pulumiCommand;
  const run = command.run;
  command.run = (args, ...rest) => run.call(command, args[0] === op ? [...args, "--profiling", prefix] : args, ...rest);
  return () => {
    command.run = run;
  };
}

/** The top of the engine's CPU profile, cumulative, or why it is not shown. */
function engineTop(dir) {
  const file = readdirSync(dir).find((f) => f.startsWith("engine.") && f.endsWith(".cpu"));
  if (!file) return "(the engine wrote no CPU profile)";
  try {
    return execFileSync("go", ["tool", "pprof", "-top", "-cum", "-nodecount=25", join(cliDir, "pulumi"), join(dir, file)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return `(go tool pprof could not read it; the profile is ${join(dir, file)})`;
  }
}

/** The busiest provider profile in `dir` (the engine may start more than one provider process): its summary and phases. */
function providerSummary(dir) {
  const summaries = readdirSync(dir)
    .filter((f) => f.startsWith("provider-") && f.endsWith(".cpuprofile"))
    .map((f) => {
      const profile = JSON.parse(readFileSync(join(dir, f), "utf8"));
      return { ...summarizeProfile(profile, { repoRoot, top: 15 }), phases: phaseTimes(profile, sides.phases.phaseOf, sides.phases.order) };
    });
  return summaries.sort((a, b) => b.busyMs - a.busyMs)[0];
}

/** Ranked milliseconds, one per line, right-aligned. */
function printRanked(rows) {
  for (const { name, ms } of rows) console.log(`${String(ms).padStart(9)}  ${name}`);
}

/** A process's self time from its CPU profile summary, by package and by function. */
function printSelfTime(label, summary) {
  console.log(`\n${label}, self time (busy ${summary.busyMs} ms), by package:`);
  printRanked(summary.byPackage);
  console.log("by function:");
  printRanked(summary.byFunction);
}

/** The provider process of both sides: CPU ms per resource (from /proc) and self time per phase (from the profile). */
function printSideBySide({ agents, shaped }) {
  const perResource = (side) => (side.cpu.provider / n).toFixed(2);
  console.log(`\n## provider process, agents | control (${op} of ${n})`);
  console.log(`CPU ms per resource (/proc): ${perResource(agents)} | ${perResource(shaped)}`);
  if (!agents.provider || !shaped.provider) return;
  const of = (side, name) => side.provider.phases.find((p) => p.name === name)?.ms ?? 0;
  const names = [...new Set([...agents.provider.phases, ...shaped.provider.phases].map((p) => p.name))];
  console.log(`self ms by phase:\n${"agents".padStart(9)}${"control".padStart(9)}`);
  for (const name of names) console.log(`${String(of(agents, name)).padStart(9)}${String(of(shaped, name)).padStart(9)}  ${name}`);
  console.log(`${String(agents.provider.busyMs).padStart(9)}${String(shaped.provider.busyMs).padStart(9)}  busy (profiled)`);
}

const emulator = await startEmulatorProcess(repoRoot, { readyAfterMs: 2000 });
try {
  const opts = { ...quiet, parallel: n };
  const dirs = { agents: join(out, "agents"), shaped: join(out, "shaped") };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  log(`${op} of ${n} agents (${host}) and of ${n} ${sides.control}; profiles in ${out}`);
  const env = await sides.env();
  const agents = await stackFor(work, `agents-${n}`, sides.agents, { count: n, prefix: "profile" }, emulator, { ...env, ...profiled(dirs.agents) });
  await agents.stack.up(opts);
  const sampleFile = writeAgentSample({ work }, agents, "profile");
  const createMs = op === "up" ? "2000" : "0";
  const shapedEnv = { ...env, BENCH_AGENT_SAMPLE: sampleFile, BENCH_SHAPED_CREATE_MS: createMs, ...profiled(dirs.shaped) };
  const shaped = await stackFor(work, `shaped-${n}`, sides.shaped, { count: n, sampleFile }, emulator, shapedEnv);
  if (op === "up") await agents.stack.destroy(opts);
  else await shaped.stack.up(opts);

  const measured = {};
  for (const [side, handle] of [["agents", agents], ["shaped", shaped]]) {
    const dir = dirs[side];
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
    const stopProfiling = profileEngine(handle, join(dir, "engine"));
    settle();
    const processes = watchProcessCpu();
    const programBefore = process.cpuUsage();
    const emulatorBefore = emulator.cpuMs();
    const session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
    const started = Date.now();
    await handle.stack[op](opts);
    const wallMs = Date.now() - started;
    const { profile: programProfile } = await session.post("Profiler.stop");
    session.disconnect();
    writeFileSync(join(dir, "program.cpuprofile"), JSON.stringify(programProfile));
    stopProfiling();
    const program = process.cpuUsage(programBefore);
    const cpu = { ...processes.stop(), emulator: Math.round(emulator.cpuMs() - emulatorBefore), program: Math.round((program.user + program.system) / 1000) };
    const provider = providerSummary(dir);
    measured[side] = { cpu, provider };
    console.log(`\n## ${side}: ${op} of ${n}, ${wallMs} ms wall`);
    console.log(`CPU ms: engine ${cpu.engine}, provider process ${cpu.provider}, emulator ${cpu.emulator}, program (this process) ${cpu.program}`);
    if (provider) {
      printSelfTime("provider process", provider);
      console.log("by phase:");
      printRanked(provider.phases);
    }
    printSelfTime("program (this process)", summarizeProfile(programProfile, { repoRoot, top: 15 }));
    console.log(`\nengine, cumulative:\n${engineTop(dir)}`);
  }
  printSideBySide(measured);
  for (const handle of [agents, shaped]) await handle.stack.destroy(opts);
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
log(`profiles kept in ${out}`);
