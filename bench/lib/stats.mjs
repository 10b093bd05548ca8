// @ts-check
// The bench's statistics: a figure is raw samples and a rule, and derive()
// turns them into per-sample values, their median and p80, the bound the
// rule judges and the verdict. bench/pool.mjs pools runs with the same code.
//
// rule.method: "median" | "p80" | "max" | "single" (exactly one sample);
// the p80 is the 80th percentile, linear interpolation at rank 0.8 × (n − 1).
// rule.combine turns a sample into a value: "value" (a number), "ratio"
// ({ subject, baseline } → subject / baseline), "difference" (subject −
// baseline), "overScaledBaseline" (subject − (rule.factor × baseline +
// rule.allowance): how far over an allowance that grows with the baseline).
// rule.compare against rule.limit: "<=", ">=", "==", or "none" (reported:
// no bar, verdict null).

/**
 * @typedef {"median" | "p80" | "max" | "single"} Method
 * @typedef {"value" | "ratio" | "difference" | "overScaledBaseline"} Combine
 * @typedef {{ method: Method, combine: Combine, compare: "<=" | ">=" | "==" | "none", limit: number, factor?: number, allowance?: number }} Rule
 * @typedef {{ subject: number, baseline: number }} PairSample
 * @typedef {number | PairSample} Sample
 * @typedef {{ values: number[], median: number, p80: number, bound: number, pass: boolean | null }} Derived
 */

/** @param {Sample} s @returns {PairSample} */
const pair = (s) => {
  if (typeof s === "number") throw new Error("this rule combines pairs { subject, baseline }, got a number");
  return s;
};

/** @type {Record<Combine, (s: Sample, rule: Rule) => number>} */
const COMBINE = {
  value: (s) => {
    if (typeof s !== "number") throw new Error("this rule takes numbers, got a pair");
    return s;
  },
  ratio: (s) => pair(s).subject / pair(s).baseline,
  difference: (s) => pair(s).subject - pair(s).baseline,
  overScaledBaseline: (s, rule) => pair(s).subject - ((rule.factor ?? NaN) * pair(s).baseline + (rule.allowance ?? NaN)),
};

const COMPARE = {
  "<=": (/** @type {number} */ v, /** @type {number} */ limit) => v <= limit,
  ">=": (/** @type {number} */ v, /** @type {number} */ limit) => v >= limit,
  "==": (/** @type {number} */ v, /** @type {number} */ limit) => v === limit,
  none: () => null,
};

/** @param {number} value @param {number} [digits] */
export const round = (value, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The q-quantile (0 ≤ q ≤ 1), linear interpolation at rank q × (n − 1).
 * @param {readonly number[]} values @param {number} q
 */
export function percentile(values, q) {
  if (values.length === 0) throw new Error("percentile of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const lo = sorted[Math.floor(rank)] ?? 0;
  const hi = sorted[Math.ceil(rank)] ?? 0;
  return lo + (hi - lo) * (rank - Math.floor(rank));
}

/** @param {readonly number[]} values */
export const median = (values) => percentile(values, 0.5);

/** @param {Method} method @param {readonly number[]} values */
export function bound(method, values) {
  if (method === "median") return median(values);
  if (method === "p80") return percentile(values, 0.8);
  if (method === "max") return Math.max(...values);
  if (method === "single" && values.length === 1) return values[0] ?? NaN;
  throw new Error(`method "${method}" cannot bound ${values.length} values`);
}

/**
 * Per-sample values, median, p80, the bound the rule's method takes and the
 * verdict on it; rounded to 3 decimals, the verdict on the rounded bound.
 * @param {Rule} rule @param {readonly Sample[]} samples @returns {Derived}
 */
export function derive(rule, samples) {
  if (samples.length === 0) throw new Error("a figure needs at least one sample");
  const values = samples.map((s) => round(COMBINE[rule.combine](s, rule)));
  const b = round(bound(rule.method, values));
  return { values, median: round(median(values)), p80: round(percentile(values, 0.8)), bound: b, pass: COMPARE[rule.compare](b, rule.limit) };
}

/** A verdict in words: "pass", "FAIL", or "reported" (no bar). */
export const verdictWord = (/** @type {boolean | null} */ pass) => (pass === null ? "reported" : pass ? "pass" : "FAIL");

/**
 * The order of a pair's sides: `keys` when `first` (the subject first), reversed otherwise.
 * @template T @param {boolean} first @param {readonly T[]} keys @returns {T[]}
 */
export const sideOrder = (first, keys) => (first ? [...keys] : [...keys].reverse());

/**
 * `order`, then reversed, and so on, `times` orders in all (A B, B A, ...):
 * a drift of the machine within a pair falls on every side alike.
 * @template T @param {readonly T[]} order @param {number} times @returns {T[]}
 */
export const mirrored = (order, times) => Array.from({ length: times }, (_, i) => (i % 2 === 0 ? [...order] : [...order].reverse())).flat();

/** @param {() => Promise<unknown>} fn @returns {Promise<number>} ms */
export async function timed(fn) {
  const start = performance.now();
  await fn();
  return round(performance.now() - start);
}
