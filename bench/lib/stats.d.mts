// Types of stats.mjs, for the TypeScript tests that check the bench's arithmetic.
export type Method = "p80" | "max" | "single";
export type Combine = "value" | "ratio" | "difference" | "minusTwiceBaseline";
export type Compare = "<=" | ">=" | "==" | "none";
export interface Rule {
  method: Method;
  combine: Combine;
  compare: Compare;
  limit: number;
}
export interface PairSample {
  subject: number;
  baseline: number;
  subjectFirst?: boolean;
}
export type Sample = number | PairSample;
export interface Derived {
  values: number[];
  median: number;
  bound: number;
  method: string;
  /** null: reported without a bar of its own. */
  pass: boolean | null;
}
export const METHODS: readonly Method[];
export const COMBINE: Record<Combine, (sample: Sample) => number>;
export const COMPARE: Record<Compare, (value: number, limit: number) => boolean | null>;
export function fails(pass: boolean | null): boolean;
export function verdictWord(pass: boolean | null): "pass" | "FAIL" | "reported";
export function median(values: readonly number[]): number;
export function percentile(values: readonly number[], q: number): number;
export function round(value: number, digits?: number): number;
export function bound(method: Method, values: readonly number[]): number;
export function describeMethod(rule: Rule, count: number): string;
export function derive(rule: Rule, samples: readonly Sample[]): Derived;
export function subjectFirst(pairIndex: number): boolean;
export function interleavedPairs(
  pairs: number,
  subject: (index: number) => Promise<number>,
  baseline: (index: number) => Promise<number>,
  onPair?: (sample: Required<PairSample>, index: number) => void,
): Promise<Required<PairSample>[]>;
export function timed(fn: () => Promise<unknown>): Promise<number>;
