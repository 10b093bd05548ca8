/**
 * The release as `npm run release` writes it (write-release.mjs),
 * written once per content of what it is made from (dist/, the SDKs,
 * schema.json, package.json, the README npm packs, the release scripts) into
 * a cache outside the repository, so the test files that install from it
 * share one build. Run `npm run build` first: the release packs dist/ as it is.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SCRIPTS_LIB_DIR, cacheRoot, sourceHash, CHECKSUMS_FILE, releaseVersion, writeRelease } from "../../support/project-scripts";
import { repoRoot } from "../../languages/support/drivers";

const DIRS = ["dist", "sdk", SCRIPTS_LIB_DIR];
const FILES = ["package.json", "schema.json", "README.md"];

function releaseKey(): string {
  const hash = createHash("sha256").update(sourceHash(DIRS.map((d) => join(repoRoot, d))));
  for (const file of FILES) hash.update("\0").update(file).update(readFileSync(join(repoRoot, file)));
  return hash.digest("hex").slice(0, 16);
}

/** The release directory (plugin tarballs, wheel, sdist, npm tarball, goproxy/, SHA256SUMS) and its version. */
export async function cachedRelease(): Promise<{ dir: string; version: string }> {
  if (!existsSync(join(repoRoot, "dist", "hosts", "grpc", "plugin-bin.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  const version = releaseVersion();
  const dir = join(cacheRoot, "release", `${version}-${releaseKey()}`);
  if (existsSync(join(dir, CHECKSUMS_FILE))) return { dir, version };
  const partial = `${dir}.${process.pid}`;
  await writeRelease(partial, () => undefined);
  // Another test file may have written the same release meanwhile (the same sources give the same bytes): keep its copy.
  if (existsSync(join(dir, CHECKSUMS_FILE))) rmSync(partial, { recursive: true, force: true });
  else renameSync(partial, dir);
  return { dir, version };
}
