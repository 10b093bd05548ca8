#!/usr/bin/env node
// npm run bench: the quality bars, with the real engine and the real
// emulator (in a process of its own), nothing mocked; bench/README.md says
// what each figure measures and why it has a bar or none. A whole run takes
// at most 20 minutes on the 2-core machine and writes bench/results.json;
// `npm run bench -- --quick` measures every group once at a small size in
// at most 3 minutes, writes nothing and judges nothing. Exits 1 when a
// whole run misses a bar or a group fails to measure.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pulumiCliDir, repoRoot } from "../scripts/lib/pulumi-env.mjs";
import { METHOD_VERSION } from "./lib/bars.mjs";
import { startEmulatorProcess } from "./lib/emulator-process.mjs";
import { loadAverage, machineFacts, table } from "./lib/report.mjs";
import { groupsOf, PLANS } from "./plan.mjs";

const quick = process.argv.includes("--quick");
const plan = quick ? PLANS.quick : PLANS.whole;
const GROUPS = groupsOf(plan);

const require = createRequire(join(repoRoot, "package.json"));
const pkg = require("./dist/index.js");
const started = Date.now();
const loadAtStart = loadAverage();
const log = (text) => process.stderr.write(`[bench ${Math.round((Date.now() - started) / 1000)}s] ${text}\n`);
const work = join(repoRoot, ".e2e-work", `bench-${Date.now().toString(36)}`);
process.env.PATH = `${pulumiCliDir()}:${process.env.PATH}`;
// The bench's agents run fake registry.example.com images, in no registry: pinning is off for every
// stack but the registry figure's (bench/figures/registry.mjs), whose images are in a real registry.
process.env.AGENT_HOSTING_PIN_IMAGE_DIGESTS = "false";
const pulumiVersion = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
const machine = machineFacts(repoRoot, pulumiVersion);

const figures = [];
const errors = [];
const emulator = await startEmulatorProcess(repoRoot, { readyAfterMs: 2000 });
const ctx = { ...plan, quick, work, log, repoRoot, require, pkg, emulator, control: new pkg.EmulatorControl(emulator.baseUrl), states: {} };
try {
  for (const group of GROUPS) {
    log(`group ${group.id}`);
    try {
      const measured = await group.measure(ctx);
      for (const f of measured) {
        figures.push(f);
        log(`${f.id}: median ${f.median}, p80 ${f.p80}, bound ${f.bound} ${f.unit} (bar ${f.bar})${f.parts ? ` ${JSON.stringify(f.parts)}` : ""}`);
      }
      const ids = measured.map((f) => f.id).join(", ");
      if (ids !== group.figures.join(", ")) throw new Error(`the group wrote the figures ${ids}; bench/plan.mjs declares ${group.figures.join(", ")}`);
    } catch (error) {
      errors.push({ group: group.id, message: String(error?.stack ?? error) });
      log(`group ${group.id} FAILED: ${String(error?.stack ?? error).slice(0, 2000)}`);
    }
  }
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}

const results = {
  methodVersion: METHOD_VERSION,
  generatedAt: new Date().toISOString(),
  wallSeconds: Math.round((Date.now() - started) / 1000),
  ...plan,
  machine: { ...machine, loadAverage: { start: loadAtStart, end: loadAverage() } },
  allPass: errors.length === 0 && figures.every((f) => f.pass !== false),
  errors,
  figures,
};
console.log(table(figures));
if (quick) {
  log(`quick run in ${results.wallSeconds} s: ${errors.length} groups failed; no verdict, nothing written`);
  process.exit(errors.length === 0 ? 0 : 1);
}
writeFileSync(join(repoRoot, "bench/results.json"), `${JSON.stringify(results, null, 2)}\n`);
log(`${results.allPass ? "every bar met" : "a bar was missed or a group failed"}; wrote bench/results.json in ${results.wallSeconds} s`);
process.exit(results.allPass ? 0 : 1);
