// @ts-check
// The bench's statistics and verdicts, one module for the bench and for the
// test that recomputes bench/results.json from its raw samples.
//
// A figure records its raw samples and a rule; everything else (per-sample
// values, median, bound, pass) is derived here, so the same inputs always
// give the same verdict.
//
// Methods (rule.method):
//   "p80"    the 80th percentile of the per-sample values (linear
//            interpolation between order statistics at rank 0.8 × (n − 1));
//            the verdict for noisy repeated measurements, stricter than the
//            median: with 7 pairs it lies between the 5th and 6th smallest.
//   "max"    the largest per-sample value; for figures every sample must meet.
//   "single" exactly one sample, the value itself (size figures).
//
// Samples (rule.combine) turn raw samples into values:
//   "value"              a number, taken as is;
//   "ratio"              { subject, baseline } → subject / baseline;
//   "difference"         { subject, baseline } → subject − baseline;
//   "minusTwiceBaseline" { subject, baseline } → subject − 2 × baseline (the
//                        logs memory rule of runs before issue 44);
//   "overScaledBaseline" { subject, baseline } → subject − (rule.factor ×
//                        baseline + rule.allowance): how far the subject is
//                        over an allowance that grows with the baseline, so
//                        "at most 1.25 × the bare loop's + 8" is this ≤ 0.
//
// Comparisons (rule.compare against rule.limit): "<=", ">=", "==", and
// "none": a figure reported for context, with no bar of its own (its verdict
// is null and never fails the run; the bar it informs is on another figure).

/**
 * @typedef {"p80" | "max" | "single"} Method
 * @typedef {"value" | "ratio" | "difference" | "minusTwiceBaseline" | "overScaledBaseline"} Combine
 * @typedef {"<=" | ">=" | "==" | "none"} Compare
 * @typedef {{ method: Method, combine: Combine, compare: Compare, limit: number, factor?: number, allowance?: number }} Rule
 *   `factor` and `allowance`: the baseline's scale and the fixed allowance of "overScaledBaseline" (no other combine reads them).
 * @typedef {{ subject: number, baseline: number, subjectFirst?: boolean }} PairSample
 * @typedef {number | PairSample} Sample
 * @typedef {{ values: number[], median: number, bound: number, method: string, pass: boolean | null }} Derived
 *   `pass` null: reported without a bar of its own.
 */

/** @type {readonly Method[]} */
export const METHODS = ["p80", "max", "single"];

/** @param {Sample} sample */
const pair = (sample) => {
  if (typeof sample === "number") throw new Error("this rule combines pairs { subject, baseline }, got a number");
  return sample;
};

/**
 * A number of the rule that its combine needs.
 * @param {Rule} rule
 * @param {"factor" | "allowance"} key
 */
const parameter = (rule, key) => {
  const value = rule[key];
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`combine "${rule.combine}" needs a numeric rule.${key}`);
  return value;
};

/** @type {Record<Combine, (sample: Sample, rule: Rule) => number>} */
export const COMBINE = {
  value: (sample) => {
    if (typeof sample !== "number") throw new Error("this rule takes numbers, got a pair");
    return sample;
  },
  ratio: (sample) => pair(sample).subject / pair(sample).baseline,
  difference: (sample) => pair(sample).subject - pair(sample).baseline,
  minusTwiceBaseline: (sample) => pair(sample).subject - 2 * pair(sample).baseline,
  overScaledBaseline: (sample, rule) => pair(sample).subject - (parameter(rule, "factor") * pair(sample).baseline + parameter(rule, "allowance")),
};

/** @type {Record<Compare, (value: number, limit: number) => boolean | null>} */
export const COMPARE = {
  "<=": (value, limit) => value <= limit,
  ">=": (value, limit) => value >= limit,
  "==": (value, limit) => value === limit,
  none: () => null,
};

/** @param {readonly number[]} values @returns {number} */
export function median(values) {
  return percentile(values, 0.5);
}

/**
 * The q-quantile (0 ≤ q ≤ 1) with linear interpolation at rank q × (n − 1).
 * @param {readonly number[]} values
 * @param {number} q
 * @returns {number}
 */
export function percentile(values, q) {
  if (values.length === 0) throw new Error("percentile of no values");
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile ${q} is not within 0..1`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const [lo, hi] = [sorted[low] ?? 0, sorted[high] ?? 0];
  return lo + (hi - lo) * (rank - low);
}

/** @param {number} value @param {number} [digits] @returns {number} */
export function round(value, digits = 3) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * The bound a method reports over per-sample values.
 * @param {Method} method
 * @param {readonly number[]} values
 * @returns {number}
 */
export function bound(method, values) {
  switch (method) {
    case "p80":
      return percentile(values, 0.8);
    case "max":
      return Math.max(...values);
    case "single":
      if (values.length !== 1) throw new Error(`a single measurement needs exactly 1 sample, got ${values.length}`);
      return values[0] ?? 0;
    default:
      throw new Error(`unknown method "${method}"`);
  }
}

/**
 * A short text of the method, for tables: "p80 of 7 pairs", "max of 7 runs", "single measurement".
 * @param {Rule} rule
 * @param {number} count
 * @returns {string}
 */
export function describeMethod(rule, count) {
  const what = rule.combine === "value" ? "runs" : "pairs";
  if (rule.method === "single") return "single measurement";
  return `${rule.method} of ${count} ${what}`;
}

/** Whether a verdict fails the run: false fails; true and null (reported, no bar) do not. */
export const fails = (/** @type {boolean | null} */ pass) => pass === false;

/** A verdict in words, for the log and the table: "pass", "FAIL" or "reported". */
export const verdictWord = (/** @type {boolean | null} */ pass) => (pass === null ? "reported" : pass ? "pass" : "FAIL");

/**
 * Everything derived from a figure's raw samples and rule: per-sample values,
 * their median, the bound its method takes, and the verdict against the bar
 * (true, false, or null for a figure reported without a bar).
 * Values are rounded to 3 decimals, and the verdict is taken on the rounded
 * bound, so a reader can check it against the figures shown.
 * @param {Rule} rule
 * @param {readonly Sample[]} samples
 * @returns {Derived}
 */
export function derive(rule, samples) {
  const combine = COMBINE[rule.combine];
  const compare = COMPARE[rule.compare];
  if (!combine) throw new Error(`unknown combine "${rule.combine}"`);
  if (!compare) throw new Error(`unknown compare "${rule.compare}"`);
  if (!Array.isArray(samples) || samples.length === 0) throw new Error("a figure needs at least one sample");
  const values = samples.map((s) => round(combine(s, rule)));
  const b = round(bound(rule.method, values));
  return {
    values,
    median: round(median(values)),
    bound: b,
    method: describeMethod(rule, samples.length),
    pass: compare(b, rule.limit),
  };
}

/**
 * `order`, then `order` reversed, and so on, `times` orders in all (A B, B A,
 * A B ...): every side stands as often before as after each other side, so
 * a drift of the machine within a pair weighs on all of them alike.
 * @template T
 * @param {readonly T[]} order
 * @param {number} times
 * @returns {T[]}
 */
export function mirrored(order, times) {
  return Array.from({ length: times }, (_, i) => (i % 2 === 0 ? [...order] : [...order].reverse())).flat();
}

/**
 * The order of the sides of a pair: `keys` (the subject first) when the subject goes first, reversed otherwise.
 * @template T
 * @param {boolean} first
 * @param {readonly T[]} keys
 * @returns {T[]}
 */
export function sideOrder(first, keys) {
  return first ? [...keys] : [...keys].reverse();
}

/** The order of a pair's two sides: the subject first in even pairs, the baseline first in odd ones. */
/** @param {number} pairIndex @returns {boolean} */
export function subjectFirst(pairIndex) {
  return pairIndex % 2 === 0;
}

/**
 * Runs `pairs` interleaved pairs of `subject()` and `baseline()` (each
 * resolving to a number), alternating which side goes first so that drift
 * in the machine's load falls on both sides alike.
 * @param {number} pairs
 * @param {(index: number) => Promise<number>} subject
 * @param {(index: number) => Promise<number>} baseline
 * @param {(sample: Required<PairSample>, index: number) => void} [onPair]
 * @returns {Promise<Required<PairSample>[]>}
 */
export async function interleavedPairs(pairs, subject, baseline, onPair = () => undefined) {
  /** @type {Required<PairSample>[]} */
  const samples = [];
  for (let i = 0; i < pairs; i++) {
    const first = subjectFirst(i);
    let s = 0;
    let b = 0;
    if (first) {
      s = await subject(i);
      b = await baseline(i);
    } else {
      b = await baseline(i);
      s = await subject(i);
    }
    const sample = { subject: round(s), baseline: round(b), subjectFirst: first };
    samples.push(sample);
    onPair(sample, i);
  }
  return samples;
}

/** @param {() => Promise<unknown>} fn @returns {Promise<number>} */
export async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
