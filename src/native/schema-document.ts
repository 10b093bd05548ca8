/**
 * The package schema answered by GetSchema: schema.json at the package root,
 * generated from the model (scripts/gen-schema.mjs) and committed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The package root: dist/native/ (or src/native/ under ts-node) is two levels down. */
export const PACKAGE_ROOT = join(__dirname, "..", "..");

/** Read at each GetSchema call, which the engine makes once per plugin at most. */
export function schemaText(): string {
  return readFileSync(join(PACKAGE_ROOT, "schema.json"), "utf8");
}

export function pluginVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
}
