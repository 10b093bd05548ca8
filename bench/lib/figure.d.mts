// Types of figure.mjs, for the test that recomputes bench/results.json.
import type { Derived, Rule, Sample } from "./stats.mjs";
export interface Figure extends Derived {
  id: string;
  name: string;
  unit: string;
  bar: string;
  rule: Rule;
  samples: Sample[];
  [extra: string]: unknown;
}
export interface Results {
  generatedAt: string;
  pairs: number;
  groups: string[];
  allPass: boolean;
  errors: { group: string; message: string }[];
  figures: Figure[];
  machine: Record<string, unknown>;
}
export function makeFigure(spec: {
  id: string;
  name: string;
  unit: string;
  bar: string;
  rule: Rule;
  samples: Sample[];
  extra?: Record<string, unknown>;
}): Figure;
export function recheck(figure: Figure): string[];
export function recheckResults(results: Results): string[];
