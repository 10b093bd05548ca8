/**
 * `npm run campaign` (scripts/campaign.mjs) runs this file under vitest with
 * test/campaign/vitest.config.ts, for the global setup's CLI, YAML host and
 * plugin tarball. Its settings come from the environment scripts/campaign.mjs
 * sets: CAMPAIGN_SEED, CAMPAIGN_STEPS, CAMPAIGN_PATH, CAMPAIGN_ROLLOUT, or
 * CAMPAIGN_SHRINK (0: off), CAMPAIGN_SHRINK_RUNS, CAMPAIGN_OUT, or
 * CAMPAIGN_REPLAY (a case's file). The test fails on a violation, after the
 * minimal case is written and its replay command printed.
 */
import { expect, it } from "vitest";
import { readCase, runCampaign } from "./campaign";
import { runCase } from "./runner";
import type { CampaignPath } from "./campaign-stack";
import type { Rollout } from "./runner";

const env = process.env;
const log = (line: string) => process.stdout.write(`[campaign ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

it(env["CAMPAIGN_REPLAY"] ? `replays ${env["CAMPAIGN_REPLAY"]}` : `campaign seed ${env["CAMPAIGN_SEED"]}, ${env["CAMPAIGN_STEPS"]} steps, ${env["CAMPAIGN_PATH"]}, ${env["CAMPAIGN_ROLLOUT"]}`, async () => {
  const replay = env["CAMPAIGN_REPLAY"];
  if (replay) {
    const c = readCase(replay);
    log(`replaying ${c.steps.length} steps on ${c.path}, ${c.rollout}`);
    const result = await runCase(c, log);
    log(result.violation ? `violation after step ${result.violation.step} (${result.violation.label}): ${result.violation.invariant}: ${result.violation.detail}` : `clean: ${result.stepsRun} steps, checks ${JSON.stringify(result.checks)}`);
    expect(result.violation).toBeUndefined();
    return;
  }
  const settings = {
    seed: Number(env["CAMPAIGN_SEED"] ?? 1),
    steps: Number(env["CAMPAIGN_STEPS"] ?? 20),
    path: (env["CAMPAIGN_PATH"] ?? "dynamic") as CampaignPath,
    rollout: (env["CAMPAIGN_ROLLOUT"] ?? "rolling") as Rollout,
    shrink: env["CAMPAIGN_SHRINK"] !== "0",
    ...(env["CAMPAIGN_SHRINK_RUNS"] ? { shrinkRuns: Number(env["CAMPAIGN_SHRINK_RUNS"]) } : {}),
    ...(env["CAMPAIGN_OUT"] ? { outDir: env["CAMPAIGN_OUT"] } : {}),
  };
  const report = await runCampaign(settings, log);
  if (!report.result.violation) log(`clean: seed ${settings.seed}, ${report.result.stepsRun} steps, ${settings.path}, ${settings.rollout}, checks ${JSON.stringify(report.result.checks)}`);
  expect(report.result.violation, report.replay).toBeUndefined();
});
