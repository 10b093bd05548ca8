// Generating the Python and Go SDKs from schema.json with tools/gen-sdk
// (Pulumi's code generators called directly), and comparing SDK trees.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { goTool } from "./go-tool.mjs";
import { repoRoot } from "./pulumi-env.mjs";

export const LANGUAGES = ["python", "go"];

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
      if (name === "__pycache__" || name.endsWith(".egg-info") || name === "build") continue;
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

/** Writes <outDir>/python and <outDir>/go. */
export function generateSdks(outDir) {
  execFileSync(goTool("gen-sdk"), [join(repoRoot, "schema.json"), outDir, ...LANGUAGES], { stdio: ["ignore", "inherit", "inherit"] });
}

