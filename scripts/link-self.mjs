#!/usr/bin/env node
// Links node_modules/pulumi-agent-hosting to this repository, so the examples,
// the end-to-end programs and the dynamic provider process (which loads
// `pulumi-agent-hosting/provider-impl` from the program's directory) resolve
// the package exactly as a user's program resolves its installed copy.
// Runs on `npm ci` / `npm install` (the "prepare" script); idempotent.
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const link = join(root, "node_modules", "pulumi-agent-hosting");
mkdirSync(join(root, "node_modules"), { recursive: true });
let current;
try {
  current = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : "not-a-link";
} catch {
  current = undefined;
}
if (current !== "..") {
  if (current !== undefined || existsSync(link)) rmSync(link, { recursive: true, force: true });
  symlinkSync("..", link, "dir");
}
