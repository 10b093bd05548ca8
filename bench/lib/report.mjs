// @ts-check
// The facts a run records beside its figures, and the table it prints.
import { execFileSync } from "node:child_process";
import os from "node:os";
import { verdictWord } from "./stats.mjs";

/** @typedef {import("./figure.mjs").Figure} Figure */

const git = (/** @type {string} */ root, /** @type {string[]} */ args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();

/** The load average over the last minute, to 2 decimals. */
export const loadAverage = () => Math.round((os.loadavg()[0] ?? 0) * 100) / 100;

/**
 * The commit, whether the tree differs from it (any change, tracked or not),
 * the CPU, memory, Node and pulumi.
 * @param {string} root @param {string} pulumiVersion
 */
export function machineFacts(root, pulumiVersion) {
  return {
    commit: git(root, ["rev-parse", "HEAD"]),
    dirty: git(root, ["status", "--porcelain"]) !== "",
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    pulumi: pulumiVersion,
  };
}

/** A markdown table: `header`, then `rows`. @param {string[]} header @param {(string | number)[][]} rows */
export const markdownTable = (header, rows) =>
  [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");

/** The figures of one run: median, p80, the bound the rule judges, the bar and the verdict. @param {Figure[]} figures */
export const table = (figures) =>
  markdownTable(
    ["figure", "id", "n", "median", "p80", "bound", "bar", "result"],
    figures.map((f) => [f.name, f.id, f.samples.length, f.median, f.p80, `${f.bound}${f.unit ? ` ${f.unit}` : ""}`, f.bar, verdictWord(f.pass)]),
  );
