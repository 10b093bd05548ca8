// Every file of a release, written into one directory from the built package
// (dist/), schema.json and the committed SDKs: the plugin tarballs, the
// Python wheel and sdist, the npm tarball, the Go module proxy, the Java
// SDK's Maven repository and SHA256SUMS. The same checkout gives the same bytes.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writePluginTarballs } from "./plugin-package.mjs";
import { writeChecksums } from "./checksums.mjs";
import { writeGoProxy } from "./go-module.mjs";
import { writeMavenRepository } from "./maven-repository.mjs";
import { GOPROXY_DIR, MAVEN_DIR, PLUGIN_TARGETS, releaseVersion } from "./names.mjs";
import { writeNpmTarball } from "./npm-tarball.mjs";
import { writePythonDists } from "./python-dists.mjs";
import { sourceDateEpoch } from "./source-date.mjs";

/**
 * Empties `outDir` and writes the release into it; returns the version.
 * @param {string} outDir
 * @param {(line: string) => void} [log]
 * @returns {Promise<string>}
 */
export async function writeRelease(outDir, log = (line) => void process.stderr.write(`${line}\n`)) {
  const version = releaseVersion();
  const mtime = sourceDateEpoch();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  log(`[release] v${version} into ${outDir}`);
  await writePluginTarballs(outDir, PLUGIN_TARGETS, version, mtime);
  log("[release] plugin tarballs written");
  writePythonDists(outDir, version, mtime);
  log("[release] wheel and sdist written");
  writeNpmTarball(outDir);
  log("[release] npm tarball written");
  writeGoProxy(join(outDir, GOPROXY_DIR), version, mtime);
  log("[release] Go module proxy written");
  writeMavenRepository(join(outDir, MAVEN_DIR), version, mtime);
  log("[release] Java SDK's Maven repository written");
  writeChecksums(outDir);
  return version;
}
