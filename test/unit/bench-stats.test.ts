/**
 * The bench's arithmetic (bench/lib/stats.mjs, bench/lib/figure.mjs): the
 * percentile and its interpolation, each method's bound, per-pair values,
 * verdicts on the bound rather than the median, the interleaving order, and
 * the recomputation that tells a bench-written results file from an edited
 * one; and the modules' declared rules (bench/lib/rules.mjs).
 */
import { describe, expect, it } from "vitest";
import { makeFigure, recheck, recheckResults, type Results } from "../../bench/lib/figure.mjs";
import { declaredFigure, declaredRuleProblems, ruleTable, sizedId } from "../../bench/lib/rules.mjs";
import { bound, derive, fails, interleavedPairs, median, mirrored, percentile, subjectFirst, type Rule } from "../../bench/lib/stats.mjs";

const p80Ratio = (limit: number): Rule => ({ method: "p80", combine: "ratio", compare: "<=", limit });

describe("percentile", () => {
  it("interpolates linearly at rank q × (n − 1)", () => {
    // sorted [1..7]: rank 0.8 × 6 = 4.8, between 5 and 6
    expect(percentile([7, 1, 6, 2, 5, 3, 4], 0.8)).toBeCloseTo(5.8, 12);
    expect(percentile([10, 20], 0.8)).toBeCloseTo(18, 12);
    expect(percentile([3], 0.8)).toBe(3);
  });

  it("gives the extremes at 0 and 1 and the middle at 0.5", () => {
    expect(percentile([4, 9, 1], 0)).toBe(1);
    expect(percentile([4, 9, 1], 1)).toBe(9);
    expect(median([4, 9, 1])).toBe(4);
    expect(median([4, 1, 9, 2])).toBe(3);
  });

  it("does not reorder its input", () => {
    const values = [3, 1, 2];
    percentile(values, 0.8);
    expect(values).toEqual([3, 1, 2]);
  });

  it("refuses no values and a quantile outside 0..1", () => {
    expect(() => percentile([], 0.5)).toThrow(/no values/);
    expect(() => percentile([1], 1.5)).toThrow(/not within 0\.\.1/);
  });
});

describe("bound", () => {
  it("p80, max and single", () => {
    expect(bound("p80", [1, 2, 3, 4, 5, 6, 7])).toBeCloseTo(5.8, 12);
    expect(bound("max", [1, 7, 3])).toBe(7);
    expect(bound("single", [42])).toBe(42);
  });

  it("a single measurement must be exactly one sample", () => {
    expect(() => bound("single", [1, 2])).toThrow(/exactly 1 sample, got 2/);
  });
});

describe("derive", () => {
  const pairs = [1.0, 1.1, 1.2, 1.2, 1.2, 1.3, 1.4].map((r, i) => ({ subject: r * 1000, baseline: 1000, subjectFirst: i % 2 === 0 }));

  it("computes per-pair ratios, their median and their 80th percentile", () => {
    const d = derive(p80Ratio(1.25), pairs);
    expect(d.values).toEqual([1, 1.1, 1.2, 1.2, 1.2, 1.3, 1.4]);
    expect(d.median).toBe(1.2);
    expect(d.bound).toBe(1.28); // 1.2 + 0.8 × (1.3 − 1.2)
    expect(d.method).toBe("p80 of 7 pairs");
  });

  it("fails on the bound although the median meets the bar", () => {
    const d = derive(p80Ratio(1.25), pairs);
    expect(d.median).toBeLessThanOrEqual(1.25);
    expect(d.pass).toBe(false);
    expect(derive(p80Ratio(1.3), pairs).pass).toBe(true);
  });

  it("differences and the memory rule's subject − 2 × baseline", () => {
    expect(derive({ method: "single", combine: "difference", compare: "==", limit: 0 }, [{ subject: 2463, baseline: 2463 }])).toMatchObject({
      values: [0],
      bound: 0,
      pass: true,
      method: "single measurement",
    });
    expect(derive({ method: "single", combine: "difference", compare: "==", limit: 0 }, [{ subject: 2500, baseline: 2463 }]).pass).toBe(false);
    const memory = derive({ method: "p80", combine: "minusTwiceBaseline", compare: "<=", limit: 16 }, [
      { subject: 50, baseline: 20 },
      { subject: 70, baseline: 20 },
    ]);
    expect(memory.values).toEqual([10, 30]);
    expect(memory.bound).toBe(26);
    expect(memory.pass).toBe(false);
  });

  it("the logs memory rule: subject − (factor × baseline + allowance), at most 0", () => {
    const rule: Rule = { method: "p80", combine: "overScaledBaseline", factor: 1.25, allowance: 8, compare: "<=", limit: 0 };
    // 50 ≤ 1.25 × 40 + 8 = 58; 70 > 58; 58 exactly meets it.
    const memory = derive(rule, [
      { subject: 50, baseline: 40 },
      { subject: 70, baseline: 40 },
      { subject: 58, baseline: 40 },
    ]);
    expect(memory.values).toEqual([-8, 12, 0]);
    expect(memory.pass).toBe(false);
    expect(derive({ ...rule, method: "max" }, [{ subject: 58, baseline: 40 }]).pass).toBe(true);
    expect(() => derive({ method: "p80", combine: "overScaledBaseline", compare: "<=", limit: 0 }, [{ subject: 1, baseline: 1 }])).toThrow(
      /combine "overScaledBaseline" needs a numeric rule\.factor/,
    );
    const { allowance: _allowance, ...withoutAllowance } = rule;
    expect(() => derive(withoutAllowance, [{ subject: 1, baseline: 1 }])).toThrow(/rule\.allowance/);
  });

  it("max over runs, and >= for a control that must see growth", () => {
    expect(derive({ method: "max", combine: "value", compare: "<=", limit: 1000 }, [120, 999, 400])).toMatchObject({
      bound: 999,
      pass: true,
      method: "max of 3 runs",
    });
    expect(derive({ method: "max", combine: "value", compare: "<=", limit: 1000 }, [120, 1001]).pass).toBe(false);
    expect(derive({ method: "single", combine: "difference", compare: ">=", limit: 262144 }, [{ subject: 264700, baseline: 2400 }]).pass).toBe(true);
  });

  it("reports a figure without a bar: its verdict is null, whatever its value", () => {
    const reported = derive({ method: "p80", combine: "ratio", compare: "none", limit: 0 }, [{ subject: 150, baseline: 100 }, { subject: 300, baseline: 100 }]);
    expect(reported).toMatchObject({ values: [1.5, 3], bound: 2.7, pass: null });
    expect(fails(reported.pass)).toBe(false);
    expect(fails(false)).toBe(true);
    expect(fails(true)).toBe(false);
  });

  it("refuses an unknown rule and no samples", () => {
    expect(() => derive({ ...p80Ratio(1), combine: "sum" as never }, [1])).toThrow(/unknown combine "sum"/);
    expect(() => derive({ ...p80Ratio(1), compare: "<" as never }, [1])).toThrow(/unknown compare "<"/);
    expect(() => derive({ ...p80Ratio(1), method: "p50" as never }, [{ subject: 1, baseline: 1 }])).toThrow(/unknown method "p50"/);
    expect(() => derive(p80Ratio(1), [])).toThrow(/at least one sample/);
  });
});

describe("mirrored", () => {
  it("repeats the order, reversed every other time, so each side stands before and after the other equally often", () => {
    expect(mirrored(["client", "bare"], 4)).toEqual(["client", "bare", "bare", "client", "client", "bare", "bare", "client"]);
    expect(mirrored(["bare", "client"], 3)).toEqual(["bare", "client", "client", "bare", "bare", "client"]);
    expect(mirrored(["a", "b", "c"], 1)).toEqual(["a", "b", "c"]);
  });
});

describe("interleavedPairs", () => {
  it("alternates which side runs first and records it", async () => {
    const calls: string[] = [];
    const samples = await interleavedPairs(
      4,
      async (i) => (calls.push(`s${i}`), 2),
      async (i) => (calls.push(`b${i}`), 1),
    );
    expect(calls).toEqual(["s0", "b0", "b1", "s1", "s2", "b2", "b3", "s3"]);
    expect(samples.map((s) => s.subjectFirst)).toEqual([true, false, true, false]);
    expect(samples.every((s) => s.subject === 2 && s.baseline === 1)).toBe(true);
    expect([0, 1, 2].map(subjectFirst)).toEqual([true, false, true]);
  });
});

describe("recheck", () => {
  const figure = () =>
    makeFigure({
      id: "preview",
      name: "preview",
      unit: "×",
      bar: "≤ 1.25",
      rule: p80Ratio(1.25),
      samples: [1.1, 1.2, 1.15].map((r) => ({ subject: r * 100, baseline: 100 })),
    });

  it("finds nothing wrong in a figure the bench made", () => {
    expect(recheck(figure())).toEqual([]);
  });

  it("names every field edited by hand", () => {
    const edited = { ...figure(), bound: 1.2, pass: false };
    expect(recheck(edited)).toEqual([
      "preview: bound is 1.2, recomputed 1.18",
      "preview: pass is false, recomputed true",
    ]);
    const resampled = figure();
    resampled.samples = [{ subject: 150, baseline: 100 }];
    expect(recheck(resampled).length).toBeGreaterThan(0);
  });

  it("names a figure recorded without its raw samples", () => {
    const { rule: _rule, samples: _samples, ...bare } = figure();
    expect(recheck(bare as never)).toEqual(["preview: no rule or raw samples recorded, so nothing to recompute it from"]);
  });

  it("checks allPass against the figures' verdicts and the groups' errors", () => {
    const results: Results = { generatedAt: "", pairs: 3, groups: ["preview"], allPass: true, errors: [], figures: [figure()], machine: {} };
    expect(recheckResults(results)).toEqual([]);
    expect(recheckResults({ ...results, errors: [{ group: "up", message: "boom" }] })).toEqual(["allPass is true, recomputed false"]);
    const failing = { ...figure(), rule: p80Ratio(1.1), pass: false };
    expect(recheckResults({ ...results, figures: [failing], allPass: true })).toEqual(["allPass is true, recomputed false"]);
    const reported = makeFigure({ id: "up-400", name: "up", unit: "×", bar: "reported", rule: { ...p80Ratio(0), compare: "none" }, samples: [{ subject: 130, baseline: 100 }] });
    expect(reported.pass).toBeNull();
    expect(recheckResults({ ...results, figures: [figure(), reported], allPass: true })).toEqual([]);
    expect(recheckResults({ ...results, figures: [figure(), reported], allPass: false })).toEqual(["allPass is false, recomputed true"]);
  });
});

describe("declared rules", () => {
  const atMost = (limit: number) => ({ rule: { method: "p80", combine: "ratio", compare: "<=", limit } as Rule, bar: `≤ ${limit}` });
  const table = ruleTable({ fixed: atMost(1) }, { op: (n: number) => atMost(n === 50 ? 1.25 : 1.5) });

  it("a table answers its fixed ids and its sized families at 50 (the plain id) and at other sizes", () => {
    expect(table("fixed")).toEqual(atMost(1));
    expect(table("op")).toEqual(atMost(1.25));
    expect(table(sizedId("op", 400))).toEqual(atMost(1.5));
    expect(sizedId("op", 50)).toBe("op");
    expect(table("op-50")).toBeUndefined();
    expect(table("fixed-400")).toBeUndefined();
    expect(table("other")).toBeUndefined();
  });

  it("a figure takes its rule and bar from the table, and an undeclared id is refused", () => {
    const figure = declaredFigure(table, { id: "op-400", name: "op", unit: "×", samples: [{ subject: 140, baseline: 100 }] });
    expect(figure).toMatchObject({ rule: atMost(1.5).rule, bar: "≤ 1.5", bound: 1.4, pass: true });
    expect(() => declaredFigure(table, { id: "other", name: "other", unit: "×", samples: [1] })).toThrow('no rule is declared for the figure "other"');
  });

  it("each recorded figure must have the rule and bar that exactly one table declares", () => {
    const results: Results = {
      generatedAt: "",
      pairs: 1,
      groups: [],
      allPass: true,
      errors: [],
      figures: [declaredFigure(table, { id: "fixed", name: "f", unit: "×", samples: [{ subject: 1, baseline: 1 }] })],
      machine: {},
    };
    expect(declaredRuleProblems(results, [table])).toEqual([]);
    expect(declaredRuleProblems(results, [table, table])).toEqual(["fixed: 2 bench modules declare a rule for it"]);
    const reordered = { ...results, figures: [{ ...results.figures[0]!, rule: { limit: 1, compare: "<=", combine: "ratio", method: "p80" } as Rule }] };
    expect(declaredRuleProblems(reordered, [table])).toEqual([]);
    const loosened = { ...results, figures: [{ ...results.figures[0]!, rule: { ...atMost(1).rule, limit: 1.01 } }] };
    expect(declaredRuleProblems(loosened, [table])).toEqual([
      'fixed: rule is {"method":"p80","combine":"ratio","compare":"<=","limit":1.01}, declared {"method":"p80","combine":"ratio","compare":"<=","limit":1}',
    ]);
    const parameterAdded = { ...results, figures: [{ ...results.figures[0]!, rule: { ...atMost(1).rule, factor: 2 } }] };
    expect(declaredRuleProblems(parameterAdded, [table])).toHaveLength(1);
  });
});
