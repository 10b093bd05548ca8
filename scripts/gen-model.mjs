#!/usr/bin/env node
// Writes what is generated from the registry's field tables (after `npm run
// build`): each resource's type files in its folder and the README's
// reference tables of the Agent. `--check` only reports drift.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  applyReadmeTables,
  renderAnswerTypes,
  renderFunctionTypes,
  renderModelTypes,
  renderReadmeTables,
  renderRequestTypes,
  renderResourceTypes,
} from "./lib/model-render.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
/** @type {{ REGISTRY: { resources: readonly import("./lib/model-render.mjs").ResourceTables[], functions: readonly import("./lib/model-render.mjs").FunctionTables[] } }} */
const { REGISTRY } = require(join(root, "dist", "registry.js"));
/** @type {{ answerModels(): ReadonlyMap<string, import("./lib/model-render.mjs").ObjectModel> }} */
const { answerModels } = require(join(root, "dist", "client", "answer-model.js"));
const readmePath = join(root, "README.md");
/** @type {Record<string, string>} */
const files = {};
for (const resource of REGISTRY.resources) {
  const folder = join(root, "src", "resources", resource.name.toLowerCase());
  files[join(folder, "inputs-outputs.ts")] = renderModelTypes(resource, [...answerModels().values()]);
  files[join(folder, "resource-args.ts")] = renderResourceTypes(resource);
}
const agent = REGISTRY.resources.find((r) => r.name === "Agent");
const logs = REGISTRY.functions.find((f) => f.name === "getAgentLogs");
if (!agent || !logs) throw new Error("the registry has no Agent or no getAgentLogs");
files[readmePath] = applyReadmeTables(readFileSync(readmePath, "utf8"), renderReadmeTables(agent));
// The public declarations beyond the resources' own: answers, requests, the functions' forms.
files[join(root, "src", "client", "answer-types.ts")] = renderAnswerTypes([...answerModels().values()]);
files[join(root, "src", "client", "request-types.ts")] = renderRequestTypes(agent, logs);
files[join(root, "src", "functions", "function-types.ts")] = renderFunctionTypes(REGISTRY.functions);
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
