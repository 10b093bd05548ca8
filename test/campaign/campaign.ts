/**
 * A campaign: the steps a seed draws (or a case read from its file), run
 * once; on a violation, shrunk to a minimal case written as JSON, with the
 * command that replays it. test/campaign/main.campaign.ts (npm run
 * campaign) and test/e2e/campaign.test.ts (the fixed seeds) both call it.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { prng } from "./prng";
import { runCase, type CampaignCase, type CaseResult, type Rollout } from "./runner";
import { shrink, writeCase } from "./shrink";
import { describeStep, drawSteps } from "./steps";
import type { CampaignPath } from "./campaign-stack";

export interface CampaignSettings {
  seed: number;
  steps: number;
  path: CampaignPath;
  rollout: Rollout;
  /** Where a minimal case is written; default .e2e-work/campaign-cases/ in the repository. */
  outDir?: string;
  /** Shrink a failure (default true). */
  shrink?: boolean;
  /** At most this many runs while shrinking (default 40). */
  shrinkRuns?: number;
}

export interface CampaignReport {
  case: CampaignCase;
  result: CaseResult;
  /** When it failed: the minimal case's file and the command that replays it. */
  minimalFile?: string;
  replay?: string;
}

/** The case a seed draws. */
export function caseOf(settings: Pick<CampaignSettings, "seed" | "steps" | "path" | "rollout">): CampaignCase {
  return { path: settings.path, rollout: settings.rollout, seed: settings.seed, steps: drawSteps(prng(settings.seed), settings.steps) };
}

/** A case written by writeCase (its extra fields are ignored). */
export function readCase(file: string): CampaignCase {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as CampaignCase;
  return { path: parsed.path, rollout: parsed.rollout, steps: parsed.steps, ...(parsed.seed === undefined ? {} : { seed: parsed.seed }) };
}

export async function runCampaign(settings: CampaignSettings, log: (line: string) => void = () => {}): Promise<CampaignReport> {
  const c = caseOf(settings);
  return runAndShrink(c, settings, log);
}

export async function runAndShrink(c: CampaignCase, settings: Pick<CampaignSettings, "outDir" | "shrink" | "shrinkRuns" | "seed" | "steps">, log: (line: string) => void): Promise<CampaignReport> {
  const result = await runCase(c, log);
  if (!result.violation) return { case: c, result };
  log(`violation after step ${result.violation.step} (${result.violation.label}): ${result.violation.invariant}: ${result.violation.detail}`);
  const outDir = settings.outDir ?? resolve(__dirname, "../../.e2e-work/campaign-cases");
  mkdirSync(outDir, { recursive: true });
  const shrunk = settings.shrink === false ? { minimal: c, result, runs: 0, isMinimal: false } : await shrink(c, result, (candidate) => runCase(candidate), settings.shrinkRuns ?? 40, log);
  const file = join(outDir, `campaign-${c.path}-${c.rollout}-seed${settings.seed}-${shrunk.result.violation?.invariant.replace(/\W+/g, "-")}.json`);
  const replay = writeCase(file, shrunk, { seed: settings.seed, steps: settings.steps });
  log(`${shrunk.isMinimal ? "minimal case" : "shrunk case, not shown minimal (the shrink runs ran out)"} (${shrunk.minimal.steps.length} steps, ${shrunk.runs} shrink runs): ${shrunk.minimal.steps.map(describeStep).join(" → ")}`);
  log(`replay: ${replay}`);
  return { case: c, result, minimalFile: file, replay };
}
