// The Java SDK in a Maven repository's layout: sdk/java built by Maven
// (`mvn package`, its pom.xml) into the jar, the sources jar and the javadoc
// jar, laid out with the pom under <group as path>/<artifact>/<version>/,
// each file beside its .md5 and .sha1 as Maven repositories (and Maven
// Central's upload) have them. A program's pom reads it as a repository
// (file:// here, Maven Central once published). The build runs on a copy
// (Maven writes target/ beside the sources), with the release's time in every
// jar entry so the same commit gives the same bytes.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mavenCoordinates } from "../java-sdk.mjs";
import { repoRoot } from "../pulumi-env.mjs";

/** @typedef {{ dir: string, jar: string, sources: string, javadoc: string, pom: string }} MavenArtifactPaths */

/**
 * Files of the SDK at `version`, relative to the repository's root: the jar, its sources and javadoc jars, the pom.
 * @param {string} version
 * @returns {MavenArtifactPaths}
 */
export function mavenArtifactPaths(version) {
  const schema = JSON.parse(readFileSync(join(repoRoot, "schema.json"), "utf8"));
  const { groupId, artifactId } = mavenCoordinates(schema);
  const dir = `${groupId.replaceAll(".", "/")}/${artifactId}/${version}`;
  const base = `${dir}/${artifactId}-${version}`;
  return { dir, jar: `${base}.jar`, sources: `${base}-sources.jar`, javadoc: `${base}-javadoc.jar`, pom: `${base}.pom` };
}

/**
 * Every file of the repository: each artifact and its .md5 and .sha1.
 * @param {string} version
 * @returns {string[]}
 */
export function mavenRepositoryFiles(version) {
  const { jar, sources, javadoc, pom } = mavenArtifactPaths(version);
  return [jar, sources, javadoc, pom].flatMap((path) => [path, `${path}.md5`, `${path}.sha1`]);
}

function mvn(args, cwd) {
  try {
    execFileSync("mvn", ["-B", "--no-transfer-progress", ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    if (error.code === "ENOENT") throw new Error("mvn is not on PATH: install Maven 3.8 or later and a JDK 11 or later to build the Java SDK");
    throw new Error(`mvn ${args.join(" ")} failed in ${cwd}:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  }
}

/**
 * Builds sdk/java and writes its artifacts into the repository at `outDir`; returns the artifacts' paths.
 * @param {string} outDir
 * @param {string} version
 * @param {number} mtime
 * @returns {string[]}
 */
export function writeMavenRepository(outDir, version, mtime) {
  const schema = JSON.parse(readFileSync(join(repoRoot, "schema.json"), "utf8"));
  if (schema.version !== version) throw new Error(`schema.json's version ${schema.version} is not the release's ${version}: run \`npm run gen\``);
  const stage = mkdtempSync(join(tmpdir(), "agent-hosting-java-dist-"));
  try {
    cpSync(join(repoRoot, "sdk/java"), stage, { recursive: true, filter: (path) => !path.startsWith(join(repoRoot, "sdk/java/target")) });
    // Maven's jars take times from 1980-01-01T00:00:02Z on (zip's first even second).
    const timestamp = new Date(Math.max(mtime, 315532802) * 1000).toISOString().replace(".000Z", "Z");
    mvn(["package", `-Dproject.build.outputTimestamp=${timestamp}`], stage);
    const paths = mavenArtifactPaths(version);
    const { artifactId } = mavenCoordinates(schema);
    const built = (suffix) => join(stage, "target", `${artifactId}-${version}${suffix}`);
    mkdirSync(join(outDir, paths.dir), { recursive: true });
    const sources = [
      [built(".jar"), paths.jar],
      [built("-sources.jar"), paths.sources],
      [built("-javadoc.jar"), paths.javadoc],
      [join(stage, "pom.xml"), paths.pom],
    ];
    for (const [from, to] of sources) {
      const target = join(outDir, to);
      copyFileSync(from, target);
      const bytes = readFileSync(target);
      for (const algorithm of ["md5", "sha1"]) writeFileSync(`${target}.${algorithm}`, createHash(algorithm).update(bytes).digest("hex"));
    }
    return sources.map(([, to]) => join(outDir, to));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
