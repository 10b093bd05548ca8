/**
 * The stacks the package deployed before image pinning
 * (test/e2e/fixtures/pre-pinning-state, written by
 * scripts/write-pre-pinning-state.mjs): a dynamic and a native one, their
 * exports and the emulator's state file, read with their placeholders
 * ({{REGISTRY_HOST}}, {{EMULATOR_URL}}) filled.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const PRE_PINNING_STATE = join(__dirname, "../fixtures/pre-pinning-state");

/** The key the fixture's stacks were deployed with: their exports hold it only encrypted. */
export const PRE_PINNING_API_KEY = "pre-pinning-SECRET-key-5e1b";

/** Every file of the fixture a test reads. */
export const PRE_PINNING_FILES = ["stack-export.json", "native-stack-export.json", "native-Pulumi.yaml", "emulator-state.json", "params.json"] as const;

/** The fixture's file `name` as committed, placeholders and all. */
export function prePinningText(name: (typeof PRE_PINNING_FILES)[number]): string {
  return readFileSync(join(PRE_PINNING_STATE, name), "utf8");
}

/** The fixture's file `name` with its placeholders filled from `values`, written into a new directory under `scratch`; returns its path. */
export function prePinningFile(name: (typeof PRE_PINNING_FILES)[number], values: Record<string, string>, scratch: string): string {
  const filled = prePinningText(name).replace(/\{\{([A-Z_]+)\}\}/g, (placeholder, key: string) => values[key] ?? placeholder);
  const path = join(mkdtempSync(join(scratch, "pre-pinning-")), name);
  writeFileSync(path, filled);
  return path;
}
