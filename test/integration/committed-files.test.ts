/**
 * Files the project commits from real runs: bench/results.json (written by
 * `npm run bench` against emulators with random keys) and bench/README.md's
 * table hold no key; every derived figure in bench/results.json (per-pair
 * values, median, bound, verdict, allPass) equals what the bench's own
 * module (bench/lib/figure.mjs) recomputes from the raw samples recorded
 * beside it, so an edited figure or a hand-set verdict fails; every figure's
 * rule and bar are the ones the bench module that makes it declares
 * (bench/lib/rules.mjs), so a limit loosened in the file fails; every scaling
 * figure's sample is its sources' bounds; and the file is a full run.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as connections from "../../bench/figures/connections.mjs";
import * as logs from "../../bench/figures/logs.mjs";
import * as native from "../../bench/figures/native.mjs";
import * as preview from "../../bench/figures/preview.mjs";
import * as readiness from "../../bench/figures/readiness.mjs";
import * as rolling from "../../bench/figures/rolling.mjs";
import * as scaling from "../../bench/figures/scaling.mjs";
import * as sizes from "../../bench/figures/sizes.mjs";
import * as up from "../../bench/figures/up.mjs";
import { makeFigure, recheckResults, type Figure, type Results } from "../../bench/lib/figure.mjs";
import { table } from "../../bench/lib/report.mjs";
import { declaredRuleProblems, sourceProblems } from "../../bench/lib/rules.mjs";

/** Every bench module that makes figures (bench/run.mjs's groups and the scaling figures): each declares its rules. */
const DECLARING = [sizes, up, rolling, preview, logs, connections, readiness, native, scaling];
const TABLES = DECLARING.map((m) => m.RULES);

const root = join(__dirname, "../..");
const EMULATOR_KEY = /emu-[0-9a-f]{24}/;
/** The groups a whole run of the bench (bench/run.mjs) writes, in its order. */
const GROUPS = ["size", "up", "rolling", "preview", "up-400", "preview-400", "logs", "connections", "readiness", "native", "native-400"];
/** The figures a whole run of the bench writes. */
const EXPECTED_FIGURES = [
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
  "readiness",
  "rolling",
  "native-preview",
  "plugin-cold-start",
  "plugin-cold-start-bundle",
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
  "preview-cpu-dynamic-400",
  "preview-cpu-native-400",
];

const committed = () => JSON.parse(readFileSync(join(root, "bench/results.json"), "utf8")) as Results;

/** `results` with figure `id` replaced by `edit(figure)` re-derived, as the bench would have written it. */
function withFigure(results: Results, id: string, edit: (figure: Figure) => Figure): Results {
  const figures = results.figures.map((f) => {
    if (f.id !== id) return f;
    const { values: _values, median: _median, bound: _bound, method: _method, pass: _pass, id: fid, name, unit, bar, rule, samples, ...extra } = edit(structuredClone(f));
    return makeFigure({ id: fid, name, unit, bar, rule, samples, extra });
  });
  return { ...results, figures };
}

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
    expect(recheckResults(committed())).toEqual([]);
  });

  it("every figure's rule and bar in bench/results.json are the ones the bench module that makes it declares", () => {
    expect(declaredRuleProblems(committed(), TABLES)).toEqual([]);
  });

  it("every scaling figure's sample is its sources' bounds in bench/results.json", () => {
    expect(sourceProblems(committed(), scaling.SOURCES)).toEqual([]);
  });

  it("a limit loosened in the file, or a scaling sample that is not its sources' bounds, fails even with the verdicts recomputed", () => {
    const results = committed();
    const loosened = withFigure(results, "up-control-400", (f) => ({ ...f, rule: { ...f.rule, limit: 2 } }));
    expect(recheckResults(loosened)).toEqual(recheckResults(results));
    expect(declaredRuleProblems(loosened, TABLES)).toContain(
      'up-control-400: rule is {"method":"p80","combine":"ratio","compare":"<=","limit":2}, declared {"method":"p80","combine":"ratio","compare":"<=","limit":1.15}',
    );
    const rebarred = withFigure(results, "up-control-400", (f) => ({ ...f, bar: "≤ 2" }));
    expect(declaredRuleProblems(rebarred, TABLES)).toContain('up-control-400: bar is "≤ 2", declared "≤ 1.15 (the provider\'s own cost)"');
    const unknown = withFigure(results, "connections", (f) => ({ ...f, id: "connections-2" }));
    expect(declaredRuleProblems(unknown, TABLES)).toContain("connections-2: no bench module declares a rule for it");

    const shrunk = withFigure(results, "up-scaling", (f) => ({ ...f, samples: [{ subject: 1.05, baseline: 1.048 }] }));
    expect(recheckResults(shrunk)).toEqual(recheckResults(results));
    expect(sourceProblems(shrunk, scaling.SOURCES)).toEqual([
      expect.stringMatching(/^up-scaling: samples are \[\{"subject":1\.05,"baseline":1\.048\}\], its sources' bounds \[\{"subject":[\d.]+,"baseline":[\d.]+\}\]$/),
    ]);
    const elsewhere = withFigure(results, "up-scaling", (f) => ({ ...f, from: ["preview-control-400", "preview-control"] }));
    expect(sourceProblems(elsewhere, scaling.SOURCES)).toEqual(['up-scaling: from is ["preview-control-400","preview-control"], expected ["up-control-<size>", "up-control"]']);
  });

  it("bench/results.json is a full run: every group, every figure, 7 pairs per repeated figure, at both sizes", () => {
    const results = committed();
    expect(results.groups).toEqual(GROUPS);
    expect(results.pairs).toBeGreaterThanOrEqual(7);
    expect(results.machine["pulumi"]).toMatch(/^v3\./);
    const ids = results.figures.map((f) => f.id);
    for (const id of EXPECTED_FIGURES) expect(ids, id).toContain(id);
    for (const figure of results.figures) {
      // Readiness: every delay, results.pairs creates each.
      const runs = figure.id === "readiness" ? readiness.DELAYS_MS.length * results.pairs : results.pairs;
      if (figure.rule.method !== "single") expect(figure.samples.length, figure.id).toBe(runs);
    }
    expect(results.figures.find((f) => f.id === "size-grown")?.["grownCodeCalled"]).toBe(true);
  });

  it("bench/README.md's table is the one the bench writes from bench/results.json", () => {
    expect(readFileSync(join(root, "bench/README.md"), "utf8")).toContain(table(committed().figures));
  });
});
