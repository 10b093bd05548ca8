// @ts-check
// bench/results.json, the printed table, and the README's bench section.
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { verdictWord } from "./stats.mjs";

/** @typedef {import("./figure.mjs").Figure} Figure @typedef {import("./figure.mjs").Results} Results */

/** @param {string} pulumiVersion @returns {Record<string, unknown>} */
export function machineFacts(pulumiVersion) {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverage1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    pulumi: pulumiVersion,
  };
}

const unit = (/** @type {Figure} */ f, /** @type {number} */ value) => `${value}${f.unit ? ` ${f.unit}` : ""}`;

/** @param {Figure[]} figures @returns {string} */
export function table(figures) {
  const header = ["figure", "method", "median", "bound", "bar", "result"];
  const rows = figures.map((f) => [
    f.name,
    f.method,
    f.rule.method === "single" ? "" : unit(f, f.median),
    unit(f, f.bound),
    f.bar,
    verdictWord(f.pass),
  ]);
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

/**
 * Writes the results; a full run (every group) goes to bench/results.json and
 * the README's table, a partial one (BENCH_ONLY) to bench/results.partial.json
 * only. Returns the file written.
 * @param {string} root
 * @param {Results} results
 * @param {{ partial: boolean }} options
 * @returns {string}
 */
export function writeResults(root, results, { partial }) {
  const file = join(root, partial ? "bench/results.partial.json" : "bench/results.json");
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  if (!partial) writeReadmeTable(root, results);
  return file;
}

/** @param {string} root @param {Results} results */
function writeReadmeTable(root, results) {
  const readme = join(root, "README.md");
  const text = readFileSync(readme, "utf8");
  const start = "<!-- bench:start -->";
  const end = "<!-- bench:end -->";
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) return;
  const m = results.machine;
  const failed = results.errors.map((e) => `\n\nGroup \`${e.group}\` failed to measure: ${e.message.split("\n")[0]}`).join("");
  const body = [
    start,
    `Measured ${results.generatedAt.slice(0, 10)} on ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, pulumi ${m.pulumi}, ` +
      `${results.pairs} interleaved pairs (or runs) per repeated figure; the verdict is taken on the bound ` +
      `(p80: 80th percentile of the per-pair values; max: the worst run; single: one measurement). ` +
      `Written by \`npm run bench\`, unedited.${failed}`,
    "",
    table(results.figures),
    end,
  ].join("\n");
  writeFileSync(readme, text.slice(0, i) + body + text.slice(j + end.length));
}
