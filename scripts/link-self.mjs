#!/usr/bin/env node
// Links node_modules/pulumi-agent-hosting to this repository, so the examples,
// the end-to-end programs and the dynamic provider process (which loads
// `pulumi-agent-hosting/provider-impl` from the program's directory) resolve
// the package exactly as a user's program resolves its installed copy; and
// links the `agent-hosting-emulator` bin, so `npx agent-hosting-emulator`
// works here as it does for a user. Runs after each build and before the
// tests (not as an install script: the published package would carry it to
// users, where this file does not exist); idempotent.
import { chmodSync, existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
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
link(join(root, "node_modules", ".bin", "agent-hosting-emulator"), "../pulumi-agent-hosting/dist/emulator/bin.js");
const bin = join(root, "dist", "emulator", "bin.js");
if (existsSync(bin)) chmodSync(bin, 0o755);
