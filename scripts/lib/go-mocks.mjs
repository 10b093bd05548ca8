// sdk/go's testing package, agenthostingtest (Mocks, for pulumi.WithMocks): the Go files beside this file and
// model.json, the mock model (mock-model.mjs) they embed, written after Pulumi's generator.
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockModel } from "./mock-model.mjs";

const templates = join(import.meta.dirname, "go-mocks");

/** Writes the package into `moduleDir`/agenthostingtest (moduleDir: sdk/go). */
export async function writeGoMocks(moduleDir) {
  const dir = join(moduleDir, "agenthostingtest");
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(templates).filter((n) => n.endsWith(".go") && !n.endsWith("_test.go"))) copyFileSync(join(templates, name), join(dir, name));
  writeFileSync(join(dir, "model.json"), `${JSON.stringify(await mockModel(), null, 1)}\n`);
}
