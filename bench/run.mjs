#!/usr/bin/env node
// npm run bench: the quality bars, measured with the real engine and the real
// emulator, nothing mocked. Each group of figures below runs in turn; every
// figure records its raw samples, and bench/lib/stats.mjs derives its bound
// and verdict. Writes bench/results.json and bench/README.md's table, and
// exits 1 when a bar is missed or a group fails. Method: bench/README.md.
//
// Environment: BENCH_PAIRS (pairs or runs per figure, default 7);
// BENCH_ONLY=id,id (only these groups; the results then go to
// bench/results.partial.json and bench/README.md is left alone).
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pulumiCliDir, repoRoot } from "../scripts/lib/pulumi-env.mjs";
import { connectionFigures } from "./figures/connections.mjs";
import { previewFigures } from "./figures/preview.mjs";
import { scalingFigures } from "./figures/scaling.mjs";
import { upFigures } from "./figures/up.mjs";
import { logFigures } from "./figures/logs.mjs";
import { nativeControlGroup, nativeFigures } from "./figures/native.mjs";
import { readinessFigures } from "./figures/readiness.mjs";
import { rollingFigures } from "./figures/rolling.mjs";
import { sizeFigures } from "./figures/sizes.mjs";
import { startEmulatorProcess } from "./lib/emulator-process.mjs";
import { machineFacts, table, writeResults } from "./lib/report.mjs";
import { fails, verdictWord } from "./lib/stats.mjs";

/**
 * The figure table: one row per group of figures. `measure(ctx)` returns
 * figures made with makeFigure (bench/lib/figure.mjs); `emulator: true` gives
 * it the shared emulator (deployments ready after 2 s, in a process of its
 * own, as a service is) as ctx.emulator and ctx.control. `agents` sets the
 * stack size (default 50). Adding a figure is adding a row; see
 * bench/README.md.
 */
const LARGE = 400;
const FIGURES = [
  { id: "size", emulator: true, measure: sizeFigures },
  { id: "up", emulator: true, measure: upFigures },
  { id: "rolling", emulator: true, measure: rollingFigures },
  { id: "preview", emulator: true, measure: previewFigures },
  { id: `up-${LARGE}`, emulator: true, measure: upFigures, agents: LARGE },
  { id: `preview-${LARGE}`, emulator: true, measure: previewFigures, agents: LARGE },
  { id: "logs", emulator: true, measure: logFigures },
  { id: "connections", emulator: true, measure: connectionFigures },
  { id: "readiness", emulator: false, measure: readinessFigures },
  { id: "native", emulator: true, measure: nativeFigures },
  { id: `native-${LARGE}`, emulator: true, measure: nativeControlGroup, agents: LARGE },
];

const PAIRS = Number(process.env.BENCH_PAIRS ?? 7);
if (!Number.isInteger(PAIRS) || PAIRS < 1) throw new Error(`BENCH_PAIRS must be a positive integer, got "${process.env.BENCH_PAIRS}"`);
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(",").map((s) => s.trim()) : undefined;
const unknown = (only ?? []).filter((id) => !FIGURES.some((g) => g.id === id));
if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown group ${unknown.join(", ")}; groups: ${FIGURES.map((g) => g.id).join(", ")}`);
const groups = FIGURES.filter((g) => !only || only.includes(g.id));

const require = createRequire(join(repoRoot, "package.json"));
const pkg = require("./dist/index.js");
const started = Date.now();
const log = (text) => process.stderr.write(`[bench ${Math.round((Date.now() - started) / 1000)}s] ${text}\n`);
const work = join(repoRoot, ".e2e-work", `bench-${Date.now().toString(36)}`);

const cliDir = pulumiCliDir();
process.env.PATH = `${cliDir}:${process.env.PATH}`;
const pulumiVersion = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();

const figures = [];
const errors = [];
const needsEmulator = groups.some((g) => g.emulator);
const emulator = needsEmulator ? await startEmulatorProcess(repoRoot, { readyAfterMs: 2000 }) : undefined;
const control = emulator ? new pkg.EmulatorControl(emulator.baseUrl) : undefined;
try {
  for (const group of groups) {
    const ctx = { pairs: PAIRS, agents: group.agents ?? 50, work, log, repoRoot, require, pkg, emulator: group.emulator ? emulator : undefined, control: group.emulator ? control : undefined };
    log(`group ${group.id}`);
    try {
      for (const f of await group.measure(ctx)) {
        figures.push(f);
        log(`${f.name}: ${f.method}, median ${f.median}, bound ${f.bound} ${f.unit} → ${verdictWord(f.pass)} (bar ${f.bar})`);
      }
    } catch (error) {
      errors.push({ group: group.id, message: String(error?.stack ?? error) });
      log(`group ${group.id} FAILED: ${error?.message ?? error}`);
    }
  }
  figures.push(...scalingFigures(figures, LARGE));
} finally {
  await emulator?.close();
  rmSync(work, { recursive: true, force: true });
}

const results = {
  generatedAt: new Date().toISOString(),
  pairs: PAIRS,
  groups: groups.map((g) => g.id),
  wallSeconds: Math.round((Date.now() - started) / 1000),
  machine: machineFacts(pulumiVersion),
  allPass: errors.length === 0 && figures.every((f) => !fails(f.pass)),
  errors,
  figures,
};
const file = writeResults(repoRoot, results, { partial: only !== undefined });
console.log(table(figures));
log(`${results.allPass ? "every bar met" : "a bar was missed or a group failed"}; wrote ${file} in ${results.wallSeconds} s`);
process.exit(results.allPass ? 0 : 1);
