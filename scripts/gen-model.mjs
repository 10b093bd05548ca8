#!/usr/bin/env node
// Writes what is generated from the registry's field tables (after `npm run
// build`): each resource's type files in its folder and the README's
// reference tables of the Agent. `--check` only reports drift.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyReadmeTables, renderModelTypes, renderReadmeTables, renderResourceTypes } from "./lib/model-render.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** @type {{ REGISTRY: { resources: readonly import("./lib/model-render.mjs").ResourceTables[] } }} */
const { REGISTRY } = createRequire(import.meta.url)(join(root, "dist", "registry.js"));
const readmePath = join(root, "README.md");
/** @type {Record<string, string>} */
const files = {};
for (const resource of REGISTRY.resources) {
  const folder = join(root, "src", "resources", resource.name.toLowerCase());
  files[join(folder, "inputs-outputs.ts")] = renderModelTypes(resource);
  files[join(folder, "resource-args.ts")] = renderResourceTypes(resource);
}
const agent = REGISTRY.resources.find((r) => r.name === "Agent");
if (agent) files[readmePath] = applyReadmeTables(readFileSync(readmePath, "utf8"), renderReadmeTables(agent));
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
  if (check) console.error(`${path} is out of date with the registry; run npm run gen`);
  else writeFileSync(path, text);
}
if (check && drift > 0) process.exit(1);
