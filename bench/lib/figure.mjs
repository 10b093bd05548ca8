// @ts-check
// A figure of bench/results.json: what was measured (id, name, unit, bar),
// its raw samples and rule, and what stats.mjs derives from them. `recheck`
// recomputes the derived part of a recorded figure, so a test can tell a
// results file written by the bench from one edited by hand.
import { derive, fails } from "./stats.mjs";

/**
 * @typedef {import("./stats.mjs").Rule} Rule
 * @typedef {import("./stats.mjs").Sample} Sample
 * @typedef {import("./stats.mjs").Derived & { id: string, name: string, unit: string, bar: string, rule: Rule, samples: Sample[], [extra: string]: unknown }} Figure
 * @typedef {{ generatedAt: string, pairs: number, groups: string[], allPass: boolean,
 *   errors: { group: string, message: string }[], figures: Figure[], machine: Record<string, unknown> }} Results
 */

/** @type {readonly (keyof import("./stats.mjs").Derived)[]} */
const DERIVED = ["values", "median", "bound", "method", "pass"];

/**
 * `rule`: { method, combine, compare, limit } (see stats.mjs); `bar`: the
 * bar in words; `extra`: context that is reported but not judged.
 * @param {{ id: string, name: string, unit: string, bar: string, rule: Rule, samples: Sample[], extra?: Record<string, unknown> }} spec
 * @returns {Figure}
 */
export function makeFigure({ id, name, unit, bar, rule, samples, extra = {} }) {
  return { id, name, unit, bar, rule, samples, ...derive(rule, samples), ...extra };
}

/**
 * The fields of a recorded figure that differ from their recomputation: [] when it is consistent.
 * @param {Figure} figure
 * @returns {string[]}
 */
export function recheck(figure) {
  if (!figure.rule || !Array.isArray(figure.samples)) {
    return [`${figure.id ?? figure.name}: no rule or raw samples recorded, so nothing to recompute it from`];
  }
  const again = derive(figure.rule, figure.samples);
  return DERIVED.filter((key) => JSON.stringify(figure[key]) !== JSON.stringify(again[key])).map(
    (key) => `${figure.id}: ${key} is ${JSON.stringify(figure[key])}, recomputed ${JSON.stringify(again[key])}`,
  );
}

/**
 * Every inconsistency of a results file: its figures, and allPass against their verdicts and the groups' errors.
 * @param {Results} results
 * @returns {string[]}
 */
export function recheckResults(results) {
  const problems = results.figures.flatMap(recheck);
  if (problems.length > 0 || !Array.isArray(results.errors)) return problems.length > 0 ? problems : ["no errors list recorded"];
  const allPass = results.errors.length === 0 && results.figures.every((f) => !fails(derive(f.rule, f.samples).pass));
  if (results.allPass !== allPass) problems.push(`allPass is ${results.allPass}, recomputed ${allPass}`);
  return problems;
}
