#!/usr/bin/env node
// Writes what is generated from the model (after `npm run build`): the type
// files and the README's reference tables. `--check` only reports drift.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyReadmeTables, renderModelTypes, renderReadmeTables, renderResourceTypes } from "./lib/model-render.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const model = createRequire(import.meta.url)(join(root, "dist", "model", "index.js"));
const readmePath = join(root, "README.md");
const files = {
  [join(root, "src", "model", "agent-types.ts")]: renderModelTypes(model),
  [join(root, "src", "resources", "agent-types.ts")]: renderResourceTypes(model),
  [readmePath]: applyReadmeTables(readFileSync(readmePath, "utf8"), renderReadmeTables(model)),
};
const check = process.argv.includes("--check");
let drift = 0;
for (const [path, text] of Object.entries(files)) {
  let current = "";
  try {
    current = readFileSync(path, "utf8");
  } catch {
    current = "";
  }
  if (current === text) continue;
  drift += 1;
  if (check) console.error(`${path} is out of date with the model; run npm run gen`);
  else writeFileSync(path, text);
}
if (check && drift > 0) process.exit(1);
