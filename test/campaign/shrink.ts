/**
 * Shrinking a failing case: steps are removed, in chunks and then one at a
 * time, as long as the same invariant still fails; a case from which no
 * single step can go without losing the failure is minimal. The single-step
 * passes repeat until one removes nothing, since a step can become removable
 * once a later one is gone. The case is written as JSON (with whether it is
 * minimal or the runs ran out first) and replayed with
 * `npm run campaign -- --replay FILE`.
 */
import { writeFileSync } from "node:fs";
import type { CampaignCase, CaseResult } from "./runner";

export interface Shrunk {
  minimal: CampaignCase;
  result: CaseResult;
  runs: number;
  /** True when a whole pass of single-step removals kept every step; false when the runs ran out first. */
  isMinimal: boolean;
}

/**
 * Removes steps from `failing` while `run` still reports the invariant it
 * failed with; stops removing after `maxRuns` runs (the case is then small, not minimal).
 */
export async function shrink(failing: CampaignCase, first: CaseResult, run: (c: CampaignCase) => Promise<CaseResult>, maxRuns = 40, log: (line: string) => void = () => {}): Promise<Shrunk> {
  const invariant = first.violation?.invariant;
  if (!invariant) throw new Error("shrink needs a failing case");
  // Steps after the failing one never matter.
  let steps = failing.steps.slice(0, first.violation?.step ?? failing.steps.length);
  let best = first;
  let runs = 0;
  const tryWithout = async (from: number, count: number): Promise<boolean> => {
    if (runs >= maxRuns) return false;
    const candidate: CampaignCase = { path: failing.path, rollout: failing.rollout, steps: [...steps.slice(0, from), ...steps.slice(from + count)] };
    runs += 1;
    const result = await run(candidate);
    log(`shrink run ${runs}: ${candidate.steps.length} steps → ${result.violation ? result.violation.invariant : "passes"}`);
    if (result.violation?.invariant !== invariant) return false;
    steps = candidate.steps.slice(0, result.violation.step);
    best = result;
    return true;
  };
  const pass = async (chunk: number): Promise<boolean> => {
    let removed = false;
    for (let from = steps.length - chunk; from >= 0 && runs < maxRuns; from -= chunk) {
      if (from + chunk <= steps.length && (await tryWithout(from, chunk))) removed = true;
    }
    return removed;
  };
  for (let chunk = Math.floor(steps.length / 2); chunk > 1; chunk = Math.floor(chunk / 2)) await pass(chunk);
  let isMinimal = false;
  while (runs < maxRuns) {
    const before = runs;
    if (!(await pass(1))) {
      // A pass that ran out of runs midway did not try every step.
      isMinimal = runs < maxRuns || runs - before >= steps.length;
      break;
    }
  }
  return { minimal: { path: failing.path, rollout: failing.rollout, steps }, result: best, runs, isMinimal };
}

/** Writes the minimal case (with what it violates) and answers the command that replays it. */
export function writeCase(file: string, shrunk: Shrunk, origin: { seed?: number; steps: number }): string {
  const violation = shrunk.result.violation;
  writeFileSync(file, `${JSON.stringify({ ...shrunk.minimal, shrunkFrom: { ...origin, runs: shrunk.runs, minimal: shrunk.isMinimal }, violation }, null, 2)}\n`);
  return `npm run campaign -- --replay ${file}`;
}
