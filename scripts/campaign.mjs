#!/usr/bin/env node
// The fault campaign (test/campaign/README.md):
//   npm run campaign -- --seed N --steps M [--path dynamic|native] [--rollout rolling|immediate] [--no-shrink] [--shrink-runs N] [--out DIR]
//   npm run campaign -- --replay FILE
// --verbose prints every operation's whole output after its step.
// It runs test/campaign/main.campaign.ts under vitest (test/campaign/vitest.config.ts), which gives it the
// end-to-end tier's pulumi CLI, YAML host and plugin tarball; the settings travel in CAMPAIGN_* variables.
// A violation is shrunk to a minimal case under .e2e-work/campaign-cases/ (or --out), and its replay command is printed.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const env = { ...process.env };
const usage = "usage: npm run campaign -- --seed N --steps M [--path dynamic|native] [--rollout rolling|immediate] [--no-shrink] [--shrink-runs N] [--out DIR] [--verbose] | --replay FILE [--verbose]";
const values = { "--seed": "CAMPAIGN_SEED", "--steps": "CAMPAIGN_STEPS", "--path": "CAMPAIGN_PATH", "--rollout": "CAMPAIGN_ROLLOUT", "--replay": "CAMPAIGN_REPLAY", "--out": "CAMPAIGN_OUT", "--shrink-runs": "CAMPAIGN_SHRINK_RUNS" };
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i];
  if (arg === "--no-shrink") env.CAMPAIGN_SHRINK = "0";
  else if (arg === "--verbose") env.CAMPAIGN_VERBOSE = "1";
  else if (arg === "--help" || arg === "-h") {
    console.log(usage);
    process.exit(0);
  } else if (values[arg] && args[i + 1] !== undefined) {
    env[values[arg]] = arg === "--replay" || arg === "--out" ? resolve(process.cwd(), args[i + 1]) : args[i + 1];
    i += 1;
  } else {
    console.error(`campaign: unknown or incomplete argument ${arg}\n${usage}`);
    process.exit(2);
  }
}
const allowed = { CAMPAIGN_PATH: ["dynamic", "native"], CAMPAIGN_ROLLOUT: ["rolling", "immediate"] };
for (const [key, list] of Object.entries(allowed)) {
  if (env[key] !== undefined && !list.includes(env[key])) {
    console.error(`campaign: ${key === "CAMPAIGN_PATH" ? "--path" : "--rollout"} must be one of ${list.join(", ")}`);
    process.exit(2);
  }
}
for (const [key, flag] of [["CAMPAIGN_SEED", "--seed"], ["CAMPAIGN_STEPS", "--steps"], ["CAMPAIGN_SHRINK_RUNS", "--shrink-runs"]]) {
  if (env[key] !== undefined && !/^\d+$/.test(env[key])) {
    console.error(`campaign: ${flag} must be a whole number`);
    process.exit(2);
  }
}
const vitest = resolve(root, "node_modules/vitest/vitest.mjs");
const run = spawnSync(process.execPath, [vitest, "run", "--config", "test/campaign/vitest.config.ts"], { cwd: root, env, stdio: "inherit" });
process.exit(run.status ?? 1);
