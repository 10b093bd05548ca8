// bench/results.json, the printed table, and the README's bench section.
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

export function machineFacts(pulumiVersion) {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    pulumi: pulumiVersion,
  };
}

export function table(figures) {
  const rows = figures.map((f) => [
    f.name,
    `${f.median}${f.unit ? ` ${f.unit}` : ""}`,
    f.spread === undefined ? "" : `±${Math.round(f.spread * 100)}%`,
    f.bar,
    f.pass ? "pass" : "FAIL",
  ]);
  const header = ["figure", "median", "spread", "bar", "result"];
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

export function writeResults(root, results) {
  writeFileSync(join(root, "bench/results.json"), `${JSON.stringify(results, null, 2)}\n`);
  const readme = join(root, "README.md");
  const text = readFileSync(readme, "utf8");
  const start = "<!-- bench:start -->";
  const end = "<!-- bench:end -->";
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) {
    const m = results.machine;
    const body = `${start}\nMeasured ${results.generatedAt.slice(0, 10)} on ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, pulumi ${m.pulumi} (${results.runs} runs each; median, spread = (max − min) / median):\n\n${table(results.figures)}\n${end}`;
    writeFileSync(readme, text.slice(0, i) + body + text.slice(j + end.length));
  }
}
