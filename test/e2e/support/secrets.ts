/** The API key must never be found: in a stack's exported state, its backend files, or any captured text. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { exportedState, type OpResult, type StackHandle } from "./stack";
import { succeeded } from "./succeeded";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export async function expectNoKeyInStack(stack: StackHandle, key: string, texts: string[] = []): Promise<void> {
  const exported: OpResult = await stack.run("export");
  succeeded(exported);
  expect(JSON.stringify(exported.deployment)).not.toContain(key);
  for (const file of filesUnder(join(stack.workDir, ".state"))) {
    expect(readFileSync(file, "utf8").includes(key), `${file} holds the API key`).toBe(false);
  }
  for (const text of texts) expect(text).not.toContain(key);
}

/** The agents the exported state holds, by service name (id); a failed export throws (test/e2e/support/stack.ts). */
export async function agentsInState(stack: StackHandle): Promise<string[]> {
  const exported = await exportedState(stack);
  const resources = (exported as { deployment?: { resources?: { type: string; id?: string }[] } }).deployment?.resources ?? [];
  return resources
    .filter((r) => r.type === "pulumi-nodejs:dynamic/agent-hosting:Agent" && r.id)
    .map((r) => r.id as string)
    .sort();
}
