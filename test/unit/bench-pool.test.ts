/**
 * The pool of committed bench runs (bench/lib/pool.mjs): only runs of one
 * method, each once; every run's values together; the verdict on the pooled
 * bound; and the spread of the runs' bounds against half the bar's margin.
 */
import { describe, expect, it } from "vitest";
import { makeFigure } from "../../bench/lib/figure.mjs";
import { pool, runsOf } from "../../bench/lib/pool.mjs";

const run = (generatedAt: string, methodVersion: number, cpu: number[], requests: number) => ({
  generatedAt,
  methodVersion,
  machine: { commit: "0".repeat(40) },
  figures: [
    makeFigure({ id: "cpu-preview-400", name: "cpu", unit: "×", samples: cpu.map((c) => ({ subject: c, baseline: 1 })) }),
    makeFigure({ id: "requests-up-50", name: "requests", unit: "", samples: [requests] }),
  ],
});

describe("pool", () => {
  it("keeps the runs of one method, each once", () => {
    const a = run("2026-12-01T00:00:00Z", 2, [1], 5);
    const runs = runsOf([a, a, run("2026-12-02T00:00:00Z", 1, [1], 5), run("2026-12-03T00:00:00Z", 2, [1], 5)], 2);
    expect(runs.map((r) => r.generatedAt)).toEqual(["2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z"]);
  });

  it("pools the runs' values, judges the pooled bound and sets the runs' spread against half the margin", () => {
    const pooled = pool([run("a", 2, [1.0, 1.02, 1.04], 5), run("b", 2, [1.02, 1.04, 1.0], 5), run("c", 2, [0.98, 1.0, 1.02], 6)]);
    expect(pooled).toEqual([
      { id: "cpu-preview-400", runs: 3, values: 9, median: 1.02, p80: 1.028, bound: 1.02, bar: "≤ 1.20 (median of pairs)", verdict: "pass", spread: 0.02, halfMargin: 0.09, steady: true },
      { id: "requests-up-50", runs: 3, values: 3, median: 5, p80: 5.6, bound: 6, bar: "≤ 8 in every run", verdict: "pass", spread: 1, halfMargin: 1, steady: true },
    ]);
    const noisy = pool([run("a", 2, [1.0], 5), run("b", 2, [1.09], 5)])[0];
    expect(noisy).toMatchObject({ bound: 1.045, verdict: "pass", spread: 0.09, halfMargin: 0.078, steady: false });
  });
});
