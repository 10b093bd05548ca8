// Writes schema.json (the native provider's package schema) from the Agent
// model, through the built package (run `npm run build` first).
// `--check` only compares and exits 1 when the committed file differs.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { repoRoot } from "./lib/pulumi-env.mjs";

const require = createRequire(import.meta.url);
const { schemaJson } = require(join(repoRoot, "dist/hosts/grpc/package-schema.js"));
const version = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version;
const target = join(repoRoot, "schema.json");
const text = schemaJson(version);

if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(target, "utf8");
  } catch {
    // missing: reported below as out of date
  }
  if (committed !== text) {
    console.error("schema.json is out of date: run `npm run gen`");
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
