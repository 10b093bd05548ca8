/**
 * The bench's statistics (bench/lib/stats.mjs) and its figures
 * (bench/lib/figure.mjs): per-sample values, median, p80, the bound a rule
 * takes and the verdict on it, and the recomputation that tells a results
 * file written by the bench from one edited by hand.
 */
import { describe, expect, it } from "vitest";
import { BARS, barFor, familyOf } from "../../bench/lib/bars.mjs";
import { makeFigure, recheckResults } from "../../bench/lib/figure.mjs";
import { derive, mirrored, percentile, sideOrder } from "../../bench/lib/stats.mjs";

describe("derive", () => {
  it("takes the p80 by linear interpolation at rank 0.8 × (n − 1)", () => {
    expect(percentile([5, 1, 4, 2, 3], 0.8)).toBe(4.2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7], 0.8)).toBeCloseTo(5.8, 10);
    expect(percentile([7], 0.8)).toBe(7);
  });

  it("judges a ratio on the median of its pairs, rounded to 3 decimals", () => {
    const rule = { method: "median", combine: "ratio", compare: "<=", limit: 1.1 } as const;
    const d = derive(rule, [
      { subject: 1.2, baseline: 1 },
      { subject: 1, baseline: 1 },
      { subject: 2, baseline: 3 },
    ]);
    expect(d).toEqual({ values: [1.2, 1, 0.667], median: 1, p80: 1.12, bound: 1, pass: true });
    expect(derive({ ...rule, method: "p80" }, [{ subject: 1.2, baseline: 1 }, { subject: 1, baseline: 1 }, { subject: 2, baseline: 3 }]).pass).toBe(false);
  });

  it("judges counts on the worst run, bytes on their one measurement, and reports without a bar", () => {
    expect(derive({ method: "max", combine: "value", compare: "<=", limit: 8 }, [5, 5, 9]).pass).toBe(false);
    expect(derive({ method: "single", combine: "difference", compare: "==", limit: 0 }, [{ subject: 80, baseline: 80 }]).pass).toBe(true);
    expect(() => derive({ method: "single", combine: "value", compare: "<=", limit: 1 }, [1, 2])).toThrow("cannot bound 2 values");
    expect(derive({ method: "p80", combine: "ratio", compare: "none", limit: 0 }, [{ subject: 3, baseline: 1 }]).pass).toBeNull();
  });

  it("measures the client's memory over an allowance that grows with the bare loop's", () => {
    const rule = { method: "median", combine: "overScaledBaseline", factor: 1.25, allowance: 8, compare: "<=", limit: 0 } as const;
    expect(derive(rule, [{ subject: 20, baseline: 10 }]).values).toEqual([-0.5]);
    expect(derive(rule, [{ subject: 21, baseline: 10 }]).pass).toBe(false);
  });

  it("alternates and mirrors the order of a pair's sides", () => {
    expect(sideOrder(false, ["agents", "shaped", "trivial"])).toEqual(["trivial", "shaped", "agents"]);
    expect(mirrored(["a", "b"], 3)).toEqual(["a", "b", "b", "a", "a", "b"]);
  });
});

describe("figures and bars", () => {
  it("finds a figure's bar by its family, on either path and at any size", () => {
    expect(familyOf("native-cpu-preview-400")).toBe("cpu-preview");
    expect(barFor("up-control-50")).toBe(BARS["up-control"]);
    expect(barFor("state-bytes").rule.limit).toBe(3009);
    expect(() => barFor("nothing-50")).toThrow('no bar is declared for the figure "nothing-50"');
  });

  it("finds an edited sample, a hand-set verdict or a loosened limit in a results file", () => {
    const figure = makeFigure({ id: "cpu-preview-400", name: "cpu", unit: "×", samples: [{ subject: 1.3, baseline: 1 }] });
    expect(figure.pass).toBe(false);
    const results = { figures: [figure], errors: [], allPass: false };
    expect(recheckResults(results)).toEqual([]);
    expect(recheckResults({ ...results, figures: [{ ...figure, pass: true }], allPass: true })).toEqual(["cpu-preview-400: pass is true, recomputed false"]);
    expect(recheckResults({ ...results, figures: [{ ...figure, rule: { ...figure.rule, limit: 2 } }] })).toEqual([
      'cpu-preview-400: rule is {"method":"median","combine":"ratio","compare":"<=","limit":2}, recomputed {"method":"median","combine":"ratio","compare":"<=","limit":1.2}',
    ]);
    expect(recheckResults({ ...results, figures: [{ ...figure, samples: [{ subject: 1, baseline: 1 }] }] })).toEqual([
      "cpu-preview-400: values is [1.3], recomputed [1]",
      "cpu-preview-400: median is 1.3, recomputed 1",
      "cpu-preview-400: p80 is 1.3, recomputed 1",
      "cpu-preview-400: bound is 1.3, recomputed 1",
      "cpu-preview-400: pass is false, recomputed true",
    ]);
  });
});
