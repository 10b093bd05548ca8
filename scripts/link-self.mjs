#!/usr/bin/env node
// Links node_modules/pulumi-agent-hosting to this repository, so the examples,
// the end-to-end programs and the dynamic provider process (which loads
// `pulumi-agent-hosting/provider-impl` from the program's directory) resolve
// the package exactly as a user's program resolves its installed copy; and
// links each bin of package.json (`agent-hosting-emulator`, `agent-hosting-review`),
// so `npx <bin>` works here as it does for a user. Runs after each build and
// before the tests (not as an install script: the published package would carry
// it to users, where this file does not exist); idempotent.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function link(path, target) {
  mkdirSync(dirname(path), { recursive: true });
  let current;
  try {
    current = lstatSync(path).isSymbolicLink() ? readlinkSync(path) : "not-a-link";
  } catch {
    current = undefined;
  }
  if (current === target) return;
  if (current !== undefined || existsSync(path)) rmSync(path, { recursive: true, force: true });
  symlinkSync(target, path);
}

link(join(root, "node_modules", "pulumi-agent-hosting"), "..");
const { bin: bins } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
for (const [name, path] of Object.entries(bins)) {
  link(join(root, "node_modules", ".bin", name), `../pulumi-agent-hosting/${path}`);
  if (existsSync(join(root, path))) chmodSync(join(root, path), 0o755);
}
