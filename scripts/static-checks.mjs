#!/usr/bin/env node
// The static checks `npm test` runs after the build: the typecheck and the
// lint, side by side (each is one process on one core), each one's output
// printed whole once it ends, so neither interleaves with the other. Fails
// when either fails, naming which.
import { spawn } from "node:child_process";

const CHECKS = ["typecheck", "lint"];
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => resolve({ script, code: 1, output: Buffer.from(String(error)) }));
    child.on("close", (code) => resolve({ script, code: code ?? 1, output: Buffer.concat(output) }));
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const { script, code, output } of results) {
  process.stdout.write(`> npm run ${script}: ${code === 0 ? "passed" : `failed (exit ${code})`}\n`);
  if (output.length > 0) process.stdout.write(output);
}
const failed = results.filter((r) => r.code !== 0).map((r) => r.script);
if (failed.length > 0) {
  console.error(`static checks failed: ${failed.join(", ")}`);
  process.exit(1);
}
