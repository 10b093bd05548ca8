/**
 * Files the project commits from real runs: bench/results.json (written by
 * `npm run bench` against emulators with random keys) and bench/README.md's
 * table hold no key; every derived figure in bench/results.json (per-pair
 * values, median, bound, verdict, allPass) equals what the bench's own
 * module (bench/lib/figure.mjs) recomputes from the raw samples recorded
 * beside it, so an edited figure or a hand-set verdict fails; and the file is
 * a full run.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recheckResults, type Results } from "../../bench/lib/figure.mjs";
import { table } from "../../bench/lib/report.mjs";

const root = join(__dirname, "../..");
const EMULATOR_KEY = /emu-[0-9a-f]{24}/;
/** The groups and figures of a whole run of the bench before it measured the native plugin against its control. */
const EARLIER_GROUPS = ["size", "up", "preview", "up-400", "preview-400", "logs", "connections", "readiness", "native"];
const EARLIER_FIGURES = [
  "size-1",
  "size-50",
  "size-grown",
  "size-control",
  "up",
  "destroy",
  "up-control",
  "destroy-control",
  "requests",
  "emulator-cost",
  "provider-memory",
  "preview",
  "preview-control",
  "up-400",
  "destroy-400",
  "up-control-400",
  "destroy-control-400",
  "requests-400",
  "emulator-cost-400",
  "provider-memory-400",
  "preview-400",
  "preview-control-400",
  "up-scaling",
  "up-floor-scaling",
  "preview-scaling",
  "preview-floor-scaling",
  "destroy-scaling",
  "destroy-floor-scaling",
  "logs",
  "logs-memory",
  "connections",
  "readiness-500",
  "readiness-2000",
  "native-preview",
  "plugin-cold-start",
  "plugin-cold-start-bundle",
  "readiness-5000",
];
/** The groups a whole run of the bench (bench/run.mjs) writes, in its order, and the figures it adds to the earlier ones. */
const GROUPS = [...EARLIER_GROUPS, "native-400"];
const EXPECTED_FIGURES = [
  ...EARLIER_FIGURES,
  "provider-memory-control",
  "provider-memory-control-400",
  "native-up-control",
  "native-preview-control",
  "native-destroy-control",
  "native-memory-control",
  "native-up-control-400",
  "native-preview-control-400",
  "native-destroy-control-400",
  "native-memory-control-400",
  "native-up-scaling",
  "native-preview-scaling",
  "native-destroy-scaling",
];

describe("committed results", () => {
  it.each(["bench/results.json", "README.md", "bench/README.md"])("%s holds no API key or header", (file) => {
    const path = join(root, file);
    expect(existsSync(path), `${file} exists`).toBe(true);
    const text = readFileSync(path, "utf8");
    expect(text).not.toMatch(EMULATOR_KEY);
    expect(text).not.toMatch(/Bearer [A-Za-z0-9]/);
    expect(text).not.toMatch(/"apiKey"\s*:\s*"[^"]+"/);
  });

  it("bench/results.json agrees with the bench's own recomputation from its raw samples", () => {
    const results = JSON.parse(readFileSync(join(root, "bench/results.json"), "utf8")) as Results;
    expect(recheckResults(results)).toEqual([]);
  });

  it("bench/results.json is a full run: every group, every figure, 7 pairs per repeated figure, at both sizes", () => {
    const results = JSON.parse(readFileSync(join(root, "bench/results.json"), "utf8")) as Results;
    // The committed file may still be a whole run of the earlier bench (its groups exactly EARLIER_GROUPS),
    // which holds every earlier figure; a whole run of this bench writes GROUPS and must hold every figure.
    const earlier = JSON.stringify(results.groups) === JSON.stringify(EARLIER_GROUPS);
    if (!earlier) expect(results.groups).toEqual(GROUPS);
    expect(results.pairs).toBeGreaterThanOrEqual(7);
    expect(results.machine["pulumi"]).toMatch(/^v3\./);
    const ids = results.figures.map((f) => f.id);
    for (const id of earlier ? EARLIER_FIGURES : EXPECTED_FIGURES) expect(ids, id).toContain(id);
    for (const figure of results.figures) {
      if (figure.rule.method !== "single") expect(figure.samples.length, figure.id).toBe(results.pairs);
    }
    expect(results.figures.find((f) => f.id === "size-grown")?.["grownCodeCalled"]).toBe(true);
  });

  it("bench/README.md's table is the one the bench writes from bench/results.json", () => {
    const results = JSON.parse(readFileSync(join(root, "bench/results.json"), "utf8")) as Results;
    expect(readFileSync(join(root, "bench/README.md"), "utf8")).toContain(table(results.figures));
  });
});
