/**
 * The previews `pulumi preview --json` printed in test/e2e/review.test.ts
 * (create, update, replace, delete of Agents, one with a secret image; the
 * replace again with --show-replacement-steps --show-sames; a preview that
 * failed on a secret input), the drift documents of test/e2e/drift.test.ts
 * and test/e2e/drift-native.test.ts (`pulumi refresh --preview-only --json`,
 * `pulumi preview --refresh --json`) and what `pulumi up --json` printed
 * there (up-*.txt), saved under test/unit/fixtures/review/, and rewrites of them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export type FixtureName =
  | "create"
  | "update"
  | "replace"
  | "replace-steps"
  | "delete"
  | "failed"
  | "drift-clean"
  | "drift-refresh-dynamic"
  | "drift-refresh-native"
  | "drift-preview-refresh";

export function fixtureText(name: FixtureName): string {
  return readFileSync(join(__dirname, "../fixtures/review", `${name}.json`), "utf8");
}

/** What `pulumi up --json` printed: a create of three Agents, and an update the service refused for one of them. */
export function upFixtureText(name: "up-create" | "up-failed"): string {
  return readFileSync(join(__dirname, "../fixtures/review", `${name}.txt`), "utf8");
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
