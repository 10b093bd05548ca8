#!/usr/bin/env node
// npm run profile: where an operation's CPU time goes, the agents against
// the Agent-shaped control (bench/programs/agent-shaped.cjs), one operation
// each, with the real CLI and the emulator in a process of its own, as in
// the bench. Prints, per side: the wall time; the CPU time of the engine, the
// dynamic provider process, the emulator and this process (which runs the
// inline program); the provider process's self time by package and by
// function (a V8 CPU profile, bench/lib/provider-profiler.cjs); and the
// engine's cumulative profile (`pulumi <command> --profiling`, read with
// `go tool pprof -top -cum` when Go is installed). The profiles stay in the
// printed directory. Timings under a profiler run slower: compare the two
// sides, not these numbers with the bench's.
//
// Environment: PROFILE_OP (up, preview or destroy; default up) and
// PROFILE_AGENTS (default 400).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pulumiCliDir, repoRoot } from "../scripts/lib/pulumi-env.mjs";
import { summarizeProfile } from "./lib/cpu-profile.mjs";
import { startEmulatorProcess } from "./lib/emulator-process.mjs";
import { settle, writeAgentSample } from "./lib/engine-stacks.mjs";
import { watchProcessCpu } from "./lib/process-cpu.mjs";
import { quiet, stackFor } from "./lib/stacks.mjs";

const OPS = ["up", "preview", "destroy"];
const op = process.env.PROFILE_OP ?? "up";
const n = Number(process.env.PROFILE_AGENTS ?? 400);
if (!OPS.includes(op)) throw new Error(`PROFILE_OP must be one of ${OPS.join(", ")}, got "${op}"`);
if (!Number.isInteger(n) || n < 1) throw new Error(`PROFILE_AGENTS must be a positive integer, got "${process.env.PROFILE_AGENTS}"`);

const cliDir = pulumiCliDir();
process.env.PATH = `${cliDir}:${process.env.PATH}`;
const stamp = Date.now().toString(36);
const work = join(repoRoot, ".e2e-work", `profile-${stamp}`);
const out = join(repoRoot, ".e2e-work", `profiles-${stamp}`);
const log = (text) => process.stderr.write(`[profile] ${text}\n`);

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

/** The busiest provider profile in `dir` (the engine may start more than one provider process). */
function providerSummary(dir) {
  const summaries = readdirSync(dir)
    .filter((f) => f.startsWith("provider-") && f.endsWith(".cpuprofile"))
    .map((f) => summarizeProfile(JSON.parse(readFileSync(join(dir, f), "utf8")), { repoRoot, top: 15 }));
  return summaries.sort((a, b) => b.busyMs - a.busyMs)[0];
}

const emulator = await startEmulatorProcess(repoRoot, { readyAfterMs: 2000 });
try {
  const opts = { ...quiet, parallel: n };
  const dirs = { agents: join(out, "agents"), shaped: join(out, "shaped") };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  log(`${op} of ${n} agents and of ${n} Agent-shaped resources; profiles in ${out}`);
  const agents = await stackFor(work, `agents-${n}`, "agents.cjs", { count: n, prefix: "profile" }, emulator, profiled(dirs.agents));
  await agents.stack.up(opts);
  const sampleFile = writeAgentSample({ work }, agents, "profile");
  const createMs = op === "up" ? "2000" : "0";
  const shapedEnv = { BENCH_AGENT_SAMPLE: sampleFile, BENCH_SHAPED_CREATE_MS: createMs, ...profiled(dirs.shaped) };
  const shaped = await stackFor(work, `shaped-${n}`, "agent-shaped.cjs", { count: n, sampleFile }, emulator, shapedEnv);
  if (op === "up") await agents.stack.destroy(opts);
  else await shaped.stack.up(opts);

  for (const [side, handle] of [["agents", agents], ["shaped", shaped]]) {
    const dir = dirs[side];
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
    const stopProfiling = profileEngine(handle, join(dir, "engine"));
    settle();
    const processes = watchProcessCpu();
    const programBefore = process.cpuUsage();
    const emulatorBefore = emulator.cpuMs();
    const started = Date.now();
    await handle.stack[op](opts);
    const wallMs = Date.now() - started;
    stopProfiling();
    const program = process.cpuUsage(programBefore);
    const cpu = { ...processes.stop(), emulator: Math.round(emulator.cpuMs() - emulatorBefore), program: Math.round((program.user + program.system) / 1000) };
    const provider = providerSummary(dir);
    console.log(`\n## ${side}: ${op} of ${n}, ${wallMs} ms wall`);
    console.log(`CPU ms: engine ${cpu.engine}, provider process ${cpu.provider}, emulator ${cpu.emulator}, program (this process) ${cpu.program}`);
    if (provider) {
      console.log(`\nprovider process, self time (busy ${provider.busyMs} ms), by package:`);
      for (const { name, ms } of provider.byPackage) console.log(`${String(ms).padStart(9)}  ${name}`);
      console.log("by function:");
      for (const { name, ms } of provider.byFunction) console.log(`${String(ms).padStart(9)}  ${name}`);
    }
    console.log(`\nengine, cumulative:\n${engineTop(dir)}`);
  }
  for (const handle of [agents, shaped]) await handle.stack.destroy(opts);
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
log(`profiles kept in ${out}`);
