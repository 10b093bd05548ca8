/**
 * The fault campaign's fixed seeds (test/campaign/README.md): one short
 * campaign on each path (dynamic: a TypeScript program through stack-op.mjs;
 * native: a YAML program with the CLI in its directory) and each rollout of
 * the emulator, every invariant checked after every step and after the
 * final destroy. A violation fails the test with the command that replays
 * its minimal case. Longer campaigns: `npm run campaign` and
 * .github/workflows/campaign.yml.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCampaign, caseOf, readCase } from "../campaign/campaign";
import { runCase } from "../campaign/runner";
import type { CampaignPath } from "../campaign/campaign-stack";
import type { Rollout } from "../campaign/runner";

const FIXED: { path: CampaignPath; rollout: Rollout; seed: number; steps: number }[] = [
  // an answer dropped after the create acted, a health check, the emulator restarted from its state file mid-up
  // (a killed up and the README's recovery on this path: the replay of killed-during-rename.json below)
  { path: "dynamic", rollout: "rolling", seed: 112, steps: 4 },
  // an outside update superseding the deployment an up waits for (twice), an image that never validates
  { path: "native", rollout: "rolling", seed: 31, steps: 6 },
  // a refresh, a rename (a replace), an agent made outside Pulumi under a name the program then declares
  { path: "dynamic", rollout: "immediate", seed: 36, steps: 5 },
  // a rename, the takeover attempt, a killed up on the native plugin and its recovery
  { path: "native", rollout: "immediate", seed: 12, steps: 5 },
];

describe("the fault campaign's fixed seeds", () => {
  for (const settings of FIXED) {
    it(`seed ${settings.seed}, ${settings.steps} steps, ${settings.path} path, ${settings.rollout} rollout: every invariant holds after every step`, async () => {
      const lines: string[] = [];
      const report = await runCampaign({ ...settings, shrink: false }, (line) => lines.push(line));
      expect(report.result.violation, `${lines.join("\n")}\n${report.replay ?? ""}`).toBeUndefined();
      expect(report.result.stepsRun).toBe(caseOf(settings).steps.length);
      // Each step and the final destroy were judged; the destroy's "the end" included.
      expect(report.result.checks["no key or credential"]).toBe(settings.steps + 1);
      expect(report.result.checks["no takeover"]).toBe(settings.steps + 1);
      expect(report.result.checks["the end"]).toBeGreaterThanOrEqual(1);
    });
  }
});

// Every minimal case a campaign found (test/campaign/README.md, "Defects found"), replayed from its file:
// each must now hold every invariant. One that fails names an open defect of that list.
const CASES = join(__dirname, "../campaign/cases");

describe("the campaign's minimal cases, replayed", () => {
  for (const file of readdirSync(CASES).filter((f) => f.endsWith(".json"))) {
    it(`${file}: every invariant holds`, async () => {
      const lines: string[] = [];
      const result = await runCase(readCase(join(CASES, file)), (line) => lines.push(line));
      expect(result.violation, `npm run campaign -- --replay test/campaign/cases/${file}\n${lines.join("\n")}`).toBeUndefined();
    });
  }
});
