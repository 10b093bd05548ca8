// @ts-check
// Node.js releases for the compatibility tests, installed from the npm
// registry's `node-<platform>-<arch>` packages (the release's `node` binary
// inside an npm package), so a machine that reaches only the package
// registries can run a program on another Node than its own.
//
// Each is cached under ~/.cache/pulumi-agent-hosting/node/<version>/bin/node,
// outside the repository like the pulumi CLI. The package is fetched with
// `npm pack` (npm checks it against the registry's integrity hash), unpacked
// into a temporary directory beside the cache entry and renamed into place,
// so a cache entry is complete or absent, and two processes installing the
// same release at once both end with the one that was renamed first.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** The release of each Node major line the tests run, by exact version. */
export const NODE_RELEASES = /** @type {const} */ ({ 20: "20.20.2", 22: "22.23.3", 24: "24.21.0" });

export const nodeCacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-agent-hosting", "node");

/** @param {string} message */
function log(message) {
  process.stderr.write(`[node-version] ${message}\n`);
}

/**
 * The exact version of a major line ("24") or an exact version given as is ("24.21.0").
 * @param {string | number} wanted
 * @returns {string}
 */
export function nodeRelease(wanted) {
  const text = String(wanted).replace(/^v/, "");
  /** @type {Record<string, string>} */
  const releases = NODE_RELEASES;
  const version = /^\d+$/.test(text) ? releases[text] : text;
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(`no pinned Node release for "${wanted}"; the pinned ones are ${Object.values(NODE_RELEASES).join(", ")}`);
  }
  return version;
}

/** The version `node` at this path reports, e.g. "v24.21.0". @param {string} node */
function versionOf(node) {
  return execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
}

/**
 * The directory holding `node` of that release: the running Node's own when
 * it is that release, else the cache entry, installed on first use.
 * @param {string | number} wanted
 * @returns {string}
 */
export function nodeBinDir(wanted) {
  const version = nodeRelease(wanted);
  if (process.version === `v${version}`) return dirname(process.execPath);
  const dir = join(nodeCacheRoot, version);
  const node = join(dir, "bin", "node");
  if (existsSync(node)) return dirname(node);

  const pkg = `node-${process.platform}-${process.arch}@${version}`;
  mkdirSync(nodeCacheRoot, { recursive: true });
  const stage = mkdtempSync(join(nodeCacheRoot, `.${version}-`));
  try {
    log(`fetching ${pkg} from the npm registry`);
    const packed = JSON.parse(
      execFileSync("npm", ["pack", pkg, "--json", "--pack-destination", stage], { cwd: stage, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }),
    );
    const tarball = join(stage, packed[0].filename);
    // Only the binary: the package also holds headers and docs (about 60 MB) that running programs never reads.
    execFileSync("tar", ["-xzf", tarball, "-C", stage, "package/bin/node", "package/LICENSE"]);
    rmSync(tarball);
    const got = versionOf(join(stage, "package", "bin", "node"));
    if (got !== `v${version}`) throw new Error(`${pkg} holds a node that reports ${got}`);
    try {
      renameSync(join(stage, "package"), dir);
      log(`installed Node ${version} into ${dir}`);
    } catch (error) {
      // Another process renamed its copy into place first.
      if (!existsSync(node)) throw error;
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return dirname(node);
}
