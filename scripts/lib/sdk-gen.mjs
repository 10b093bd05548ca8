// Generating the SDKs from schema.json, and comparing SDK trees: Python and
// Go with tools/gen-sdk (Pulumi's code generators called directly), Java
// with pulumi-java's generator and a Maven build around it
// (scripts/lib/java-sdk.mjs).
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { goTool } from "./go-tool.mjs";
import { generateJavaSdk } from "./java-sdk.mjs";
import { writeGoMocks } from "./go-mocks.mjs";
import { writeJavaMocks } from "./java-mocks.mjs";
import { writePythonMocks } from "./python-mocks.mjs";
import { repoRoot } from "./pulumi-env.mjs";

export const LANGUAGES = ["python", "go", "java"];
const GO_GENERATED = ["python", "go"];

function files(dir, root = dir, out = new Map()) {
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      // Build output: Python's, and Maven's target/.
      if (name === "__pycache__" || name.endsWith(".egg-info") || name === "build" || name === "target") continue;
      files(path, root, out);
    } else out.set(relative(root, path), readFileSync(path, "utf8"));
  }
  return out;
}

/** Relative paths that differ between two SDK trees (missing on either side, or different content). */
export function sdkDrift(expectedDir, actualDir) {
  const expected = files(expectedDir);
  const actual = files(actualDir);
  const drift = [];
  for (const [path, text] of expected) if (actual.get(path) !== text) drift.push(path);
  for (const path of actual.keys()) if (!expected.has(path)) drift.push(path);
  return drift.sort();
}

/** Writes <outDir>/python, <outDir>/go and <outDir>/java, then the testing modules beside what the generators wrote (from the built package: run `npm run build` first). */
export async function generateSdks(outDir) {
  const schema = join(repoRoot, "schema.json");
  execFileSync(goTool("gen-sdk"), [schema, outDir, ...GO_GENERATED], { stdio: ["ignore", "inherit", "inherit"] });
  generateJavaSdk(schema, join(outDir, "java"));
  await writePythonMocks(join(outDir, "python", "pulumi_agent_hosting"));
  await writeGoMocks(join(outDir, "go"));
  await writeJavaMocks(join(outDir, "java"));
}

