// @ts-check
// A figure of bench/results.json: its id, name, unit, raw samples, its rule
// and bar (bench/lib/bars.mjs) and what bench/lib/stats.mjs derives from
// them. recheckResults recomputes a results file, so a file edited by hand
// (a sample, a verdict, a loosened limit) differs from its recomputation.
import { barFor } from "./bars.mjs";
import { derive } from "./stats.mjs";

/**
 * @typedef {import("./stats.mjs").Sample} Sample
 * @typedef {import("./stats.mjs").Derived & { id: string, name: string, unit: string, bar: string, rule: import("./stats.mjs").Rule, samples: Sample[], [extra: string]: unknown }} Figure
 */

/**
 * @param {{ id: string, name: string, unit: string, samples: Sample[], extra?: Record<string, unknown> }} spec
 * @returns {Figure}
 */
export function makeFigure({ id, name, unit, samples, extra = {} }) {
  const { rule, bar } = barFor(id);
  return { id, name, unit, bar, rule, samples, ...derive(rule, samples), ...extra };
}

/**
 * What in `results` differs from its recomputation from the raw samples and the declared bars: [] when nothing.
 * @param {{ figures: Figure[], errors: unknown[], allPass: boolean }} results
 * @returns {string[]}
 */
export function recheckResults(results) {
  const problems = results.figures.flatMap((f) => {
    const again = makeFigure({ id: f.id, name: f.name, unit: f.unit, samples: f.samples });
    return ["bar", "rule", "values", "median", "p80", "bound", "pass"]
      .filter((key) => JSON.stringify(f[key]) !== JSON.stringify(again[key]))
      .map((key) => `${f.id}: ${key} is ${JSON.stringify(f[key])}, recomputed ${JSON.stringify(again[key])}`);
  });
  const allPass = results.errors.length === 0 && results.figures.every((f) => f.pass !== false);
  if (results.allPass !== allPass) problems.push(`allPass is ${results.allPass}, recomputed ${allPass}`);
  return problems;
}
