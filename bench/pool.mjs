#!/usr/bin/env node
// npm run bench:pool: pools the whole runs committed as bench/results.json
// (every commit that touched it, read with git show) of the current method
// version (bench/lib/bars.mjs), and prints per figure the run count, the
// pooled median and p80, the bound its rule takes and the verdict, and the
// spread of the runs' bounds against half the bar's margin.
// `--readme` also writes that table into bench/README.md, between its
// "pool:start" and "pool:end" markers.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../scripts/lib/pulumi-env.mjs";
import { METHOD_VERSION } from "./lib/bars.mjs";
import { pool, runsOf } from "./lib/pool.mjs";
import { markdownTable } from "./lib/report.mjs";

const git = (args) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
const commits = git(["log", "--format=%H", "--", "bench/results.json"]).split("\n").filter(Boolean);
const committed = commits.flatMap((commit) => {
  try {
    return [JSON.parse(git(["show", `${commit}:bench/results.json`]))];
  } catch {
    return []; // the commit deleted the file
  }
});
const runs = runsOf(committed, METHOD_VERSION);
const rows = pool(runs).map((p) => [
  p.id,
  p.runs,
  p.values,
  p.median,
  p.p80,
  p.bound,
  p.bar,
  p.verdict,
  p.spread,
  p.halfMargin ?? "",
  p.steady === null ? "" : p.steady ? "yes" : "NO",
]);
const header = ["figure", "runs", "values", "pooled median", "pooled p80", "pooled bound", "bar", "pooled verdict", "spread of the runs' bounds", "half the margin", "spread ≤ half margin"];
const summary =
  `${runs.length} whole runs of method ${METHOD_VERSION} committed (${runs.map((r) => `${r.machine.commit.slice(0, 7)}${r.machine.dirty ? " dirty" : ""}, ` + `${Math.round(r.wallSeconds / 60)} min, load ${r.machine.loadAverage.start}→${r.machine.loadAverage.end}`).join("; ")}); ` +
  "pooled by `npm run bench:pool -- --readme`.";
const text = `${summary}\n\n${markdownTable(header, rows)}`;
console.log(text);

if (process.argv.includes("--readme")) {
  const file = join(repoRoot, "bench/README.md");
  const readme = readFileSync(file, "utf8");
  const [start, end] = ["<!-- pool:start -->", "<!-- pool:end -->"];
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  if (i < 0 || j < i) throw new Error(`bench/README.md has no ${start} … ${end} section`);
  writeFileSync(file, `${readme.slice(0, i + start.length)}\n${text}\n${readme.slice(j)}`);
}
