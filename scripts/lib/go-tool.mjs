// @ts-check
// Finding the Go toolchain and building the repository's small Go programs
// (tools/gen-sdk) once, into a cache outside the repository keyed by a hash
// of their sources, so tests and scripts do not rebuild them each run.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join, relative } from "node:path";
import { repoRoot } from "./pulumi-env.mjs";

export const cacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-agent-hosting");

/** The `go` executable: on PATH, or where the official tarball installs it. @returns {string} */
export function goBinary() {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, "go"))) return join(dir, "go");
  }
  for (const candidate of ["/usr/local/go/bin/go", "/usr/lib/go/bin/go"]) if (existsSync(candidate)) return candidate;
  throw new Error("no Go toolchain: install Go >= 1.24 (https://go.dev/dl) to generate the SDKs or run the Go tests");
}

/**
 * Environment for `go` offline-friendly: no checksum database, modules resolved as needed, no toolchain download.
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function goEnv(extra = {}) {
  return { ...process.env, GOSUMDB: "off", GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod", CGO_ENABLED: "0", ...extra };
}

/** Build output and caches that tools leave beside sources. */
const SKIPPED_DIRS = /^(__pycache__|build|.*\.egg-info|node_modules)$/;

/** @param {import("node:crypto").Hash} hash @param {string} root @param {string} [dir] */
function addTree(hash, root, dir = root) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.test(entry.name)) addTree(hash, root, path);
    } else hash.update(relative(root, path)).update(readFileSync(path));
  }
}

/** A hash of the files under the given directories (their paths relative to each, and contents). @param {string[]} dirs @returns {string} */
export function sourceHash(dirs) {
  const hash = createHash("sha256");
  for (const dir of dirs) addTree(hash.update("\0"), dir);
  return hash.digest("hex").slice(0, 16);
}

/**
 * Path of the program built from `source` (a Go main package), building it
 * on first use into <cache>/<name>/<hash of source and inputs>/ (progress on
 * stderr). `inputs` are more directories whose change must rebuild it, such
 * as a local module it replaces a dependency with.
 * @param {string} name
 * @param {string} source
 * @param {string[]} [inputs]
 * @returns {string}
 */
export function goProgram(name, source, inputs = []) {
  const dir = join(cacheRoot, name, sourceHash([source, ...inputs]));
  const binary = join(dir, name);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`[${name}] building ${source} into ${dir}\n`);
  const partial = `${binary}.${process.pid}`;
  execFileSync(goBinary(), ["build", "-trimpath", "-o", partial, "."], { cwd: source, env: goEnv(), stdio: ["ignore", "inherit", "inherit"] });
  renameSync(partial, binary);
  return binary;
}

/** Path of the built tools/<name> program. @param {string} name @returns {string} */
export function goTool(name) {
  return goProgram(name, join(repoRoot, "tools", name));
}
