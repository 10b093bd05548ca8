/**
 * A Java program as a user of the release writes it: examples/java copied
 * into a directory outside this repository, its pom.xml naming the release's
 * Maven repository (file://, in place of Maven Central) for the SDK, and
 * Maven's local repository the program's own (test/e2e/support/java-program.ts),
 * so the SDK's jar comes from the release and from nowhere else.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAVEN_DIR } from "../../support/project-scripts";
import { repoRoot } from "../../languages/support/drivers";
import { isolateMaven, withRepository } from "./java-program";

/** The id of the release's repository in the program's pom (Maven records it beside what it fetched). */
export const RELEASE_REPOSITORY_ID = "agent-hosting-release";

/** Copies examples/java into `programDir`; returns Maven's local repository for it and the function that warms ~/.m2 afterwards. */
export function javaProgramFromRelease(releaseDir: string, programDir: string, stateDir: string): { localRepository: string; harvest(): void } {
  for (const file of ["Pulumi.yaml", "src", ".mvn"]) cpSync(join(repoRoot, "examples/java", file), join(programDir, file), { recursive: true });
  const pom = readFileSync(join(repoRoot, "examples/java/pom.xml"), "utf8");
  writeFileSync(join(programDir, "pom.xml"), withRepository(pom, RELEASE_REPOSITORY_ID, `file://${join(releaseDir, MAVEN_DIR)}`));
  return isolateMaven(programDir, stateDir);
}
