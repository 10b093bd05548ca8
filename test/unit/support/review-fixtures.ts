/**
 * The previews `pulumi preview --json` printed in test/e2e/review.test.ts
 * (create, update, replace, delete of Agents, one with a secret image; the
 * replace again with --show-replacement-steps --show-sames; a preview that
 * failed on a secret input),
 * saved under test/unit/fixtures/review/, and rewrites of them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export type FixtureName = "create" | "update" | "replace" | "replace-steps" | "delete" | "failed";

export function fixtureText(name: FixtureName): string {
  return readFileSync(join(__dirname, "../fixtures/review", `${name}.json`), "utf8");
}

type Json = Record<string, unknown>;

/** A fixture with one input of one resource replaced (in newState, or in oldState when `state` says so). */
export function withInput(name: FixtureName, resource: string, input: string, value: unknown, state: "newState" | "oldState" = "newState"): string {
  const document = JSON.parse(fixtureText(name)) as { steps: Json[] };
  const step = document.steps.find((s) => String(s["urn"]).endsWith(`::${resource}`));
  const inputs = (step?.[state] as Json | undefined)?.["inputs"] as Json | undefined;
  if (!inputs) throw new Error(`${name}.json has no ${state}.inputs for ${resource}`);
  inputs[input] = value;
  return JSON.stringify(document);
}
