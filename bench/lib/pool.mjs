// @ts-check
// Pools whole runs of the bench (bench/results.json files) of one method
// version: per figure, every run's per-pair values together, their median
// and p80, the bound its rule takes over them and the verdict on it; and the
// spread of the runs' own bounds against half the bar's margin, the rule a
// bar must meet to stand (bench/lib/bars.mjs).
import { bound, median, percentile, round, verdictWord } from "./stats.mjs";

/**
 * @typedef {import("./figure.mjs").Figure} Figure
 * @typedef {{ methodVersion: number, generatedAt: string, machine: { commit: string }, figures: Figure[] }} Run
 * @typedef {{ id: string, runs: number, values: number, median: number, p80: number, bound: number, bar: string, verdict: string,
 *   spread: number, halfMargin: number | null, steady: boolean | null }} PooledFigure
 */

/**
 * The runs of `method` among `runs`, each once (a results file committed twice counts once).
 * @param {Run[]} runs @param {number} method @returns {Run[]}
 */
export function runsOf(runs, method) {
  const seen = new Set();
  return runs.filter((r) => r.methodVersion === method && !seen.has(r.generatedAt) && seen.add(r.generatedAt));
}

/**
 * Per figure id, in the order of their first appearance: the pool of `runs`.
 * @param {Run[]} runs @returns {PooledFigure[]}
 */
export function pool(runs) {
  /** @type {Map<string, Figure[]>} */
  const byId = new Map();
  for (const run of runs) for (const f of run.figures) byId.set(f.id, [...(byId.get(f.id) ?? []), f]);
  return [...byId].map(([id, figures]) => {
    const last = /** @type {Figure} */ (figures.at(-1));
    const values = figures.flatMap((f) => f.values);
    const method = last.rule.method === "single" ? "max" : last.rule.method;
    const pooled = round(bound(method, values));
    const bounds = figures.map((f) => f.bound);
    const spread = round(Math.max(...bounds) - Math.min(...bounds));
    const { compare, limit } = last.rule;
    const margin = compare === "<=" ? limit - pooled : compare === ">=" ? pooled - limit : compare === "==" ? 0 : null;
    const pass = compare === "none" ? null : compare === "<=" ? pooled <= limit : compare === ">=" ? pooled >= limit : pooled === limit;
    return {
      id,
      runs: figures.length,
      values: values.length,
      median: round(median(values)),
      p80: round(percentile(values, 0.8)),
      bound: pooled,
      bar: last.bar,
      verdict: verdictWord(pass),
      spread,
      halfMargin: margin === null ? null : round(margin / 2),
      steady: margin === null || figures.length < 2 ? null : compare === "==" ? spread === 0 : spread <= margin / 2,
    };
  });
}
