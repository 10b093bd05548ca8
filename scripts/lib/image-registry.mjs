// @ts-check
// The image-digest tests' real registry and its tools, built from the Go
// modules tools/image-registry/go.mod pins: the CNCF distribution registry
// (github.com/distribution/distribution/v3, cmd/registry), go-containerregistry's
// `crane` (github.com/google/go-containerregistry, cmd/crane), which pushes and
// re-tags images, and tools/image-registry/htpasswd, which writes the
// registry's bcrypt htpasswd file. Built once into a cache outside the
// repository keyed by a hash of that module's files (as scripts/lib/pulumi-java.mjs).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot, goBinary, goEnv, sourceHash } from "./go-tool.mjs";
import { repoRoot } from "./pulumi-env.mjs";

export const IMAGE_REGISTRY_MODULE = join(repoRoot, "tools/image-registry");
const PACKAGES = {
  registry: "github.com/distribution/distribution/v3/cmd/registry",
  crane: "github.com/google/go-containerregistry/cmd/crane",
  htpasswd: "./htpasswd",
};
/** A lock older than this is a build that died: a cold build takes about 4 minutes on 2 busy cores. */
const STALE_LOCK_MS = 30 * 60 * 1000;

/** The version tools/image-registry/go.mod requires of `module`, with its "v". @param {string} module @returns {string} */
function requiredVersion(module) {
  const escaped = module.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const match = readFileSync(join(IMAGE_REGISTRY_MODULE, "go.mod"), "utf8").match(new RegExp(`^\\s*(?:require\\s+)?${escaped} (v\\S+)`, "m"));
  if (!match?.[1]) throw new Error(`tools/image-registry/go.mod requires no ${module}`);
  return match[1];
}

/** @param {number} ms */
function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Takes the lock directory, or returns false while another live process holds it. @param {string} lock @returns {boolean} */
function tryLock(lock) {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // The holder removed it meanwhile; the next try takes it.
    }
    return false;
  }
}

/** Builds the three programs into `dir` (through a partial directory, renamed when complete). @param {string} dir @param {string} versions */
function build(dir, versions) {
  const partial = `${dir}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  process.stderr.write(`[image-registry] building registry, crane and htpasswd (${versions}) into ${dir} (first run only)\n`);
  execFileSync(goBinary(), ["build", "-trimpath", "-ldflags", "-s -w", "-o", `${partial}/`, ...Object.values(PACKAGES)], {
    cwd: IMAGE_REGISTRY_MODULE,
    // -mod=readonly: the committed go.sum holds every module the build needs; nothing rewrites it.
    env: goEnv({ GOFLAGS: "-mod=readonly" }),
    stdio: ["ignore", "inherit", "inherit"],
  });
  renameSync(partial, dir);
}

/**
 * The paths of `registry`, `crane` and `htpasswd`, built on first use (progress on stderr).
 * @returns {{ registry: string, crane: string, htpasswd: string, dir: string }}
 */
export function imageRegistryTools() {
  const versions = `distribution-${requiredVersion("github.com/distribution/distribution/v3")}-crane-${requiredVersion("github.com/google/go-containerregistry")}`;
  const dir = join(cacheRoot, "image-registry", `${versions}-${sourceHash([IMAGE_REGISTRY_MODULE])}`);
  const paths = { registry: join(dir, "registry"), crane: join(dir, "crane"), htpasswd: join(dir, "htpasswd"), dir };
  const built = () => Object.keys(PACKAGES).every((name) => existsSync(join(dir, name)));
  if (built()) return paths;
  // Test files run in parallel and each may come first: one builds under the lock, the others wait for it.
  mkdirSync(join(cacheRoot, "image-registry"), { recursive: true });
  const lock = `${dir}.lock`;
  while (!tryLock(lock)) {
    if (built()) return paths;
    sleepSync(1000);
  }
  try {
    if (!built()) build(dir, versions);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return paths;
}
