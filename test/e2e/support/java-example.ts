/**
 * A Java program of a documentation example (one App.java, in the package it
 * declares) set up as users run it: `pulumi` in a program directory with
 * examples/java's pom.xml (its mainClass the program's class) and
 * .mvn/jvm.config, the Java SDK from the release's Maven repository (a
 * file:// repository in the pom), Maven's
 * local repository the program's own (test/e2e/support/java-program.ts), and
 * pulumi-language-java on PATH beside the CLI.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAVEN_DIR } from "../../support/project-scripts";
import { cachedRelease } from "./cached-release";
import { repoRoot } from "../../languages/support/drivers";
import { isolateMaven, javaProgramEnv, withRepository } from "./java-program";

/**
 * The Java SDK's Maven repository as the release holds it (its maven/): the release is written once per
 * content of what it is made from and shared by every test file (test/e2e/support/cached-release.ts), so
 * sdk/java is built once, not once per file. Programs only read it (a file:// repository in their pom).
 */
export async function releasedSdkRepository(): Promise<string> {
  return join((await cachedRelease()).dir, MAVEN_DIR);
}

/** The class `source` declares, with its package: `generated_program.App`. */
export function javaMainClass(source: string): string {
  const pkg = /^package ([\w.]+);$/m.exec(source)?.[1];
  const cls = /^public class (\w+)/m.exec(source)?.[1];
  if (!pkg || !cls) throw new Error("the Java program declares no `package` line or no public class");
  return `${pkg}.${cls}`;
}

/**
 * Writes the program `source` into `programDir` as a Maven project named `name` (Pulumi.yaml, pom.xml,
 * .mvn/, the source at its package's path), the SDK from `sdkRepository`; Maven's state goes under
 * `stateDir`. Returns the program's environment (from the stack's `stackEnv`) and the function that
 * copies what Maven fetched back into ~/.m2.
 */
export function javaExampleProgram(
  source: string,
  name: string,
  programDir: string,
  stateDir: string,
  sdkRepository: string,
  stackEnv: NodeJS.ProcessEnv,
): { env: NodeJS.ProcessEnv; harvest(): void } {
  const mainClass = javaMainClass(source);
  writeFileSync(join(programDir, "Pulumi.yaml"), `name: ${name}\nruntime: java\n`);
  cpSync(join(repoRoot, "examples/java/.mvn"), join(programDir, ".mvn"), { recursive: true });
  const pom = readFileSync(join(repoRoot, "examples/java/pom.xml"), "utf8");
  const MAIN_CLASS = /<mainClass>[\w.]+<\/mainClass>/;
  if (!MAIN_CLASS.test(pom)) throw new Error("examples/java/pom.xml has no <mainClass> property to name the program's class in");
  const named = pom.replace(MAIN_CLASS, `<mainClass>${mainClass}</mainClass>`);
  writeFileSync(join(programDir, "pom.xml"), withRepository(named, "agent-hosting-sdk", `file://${sdkRepository}`));
  const sourceDir = join(programDir, "src/main/java", ...mainClass.split(".").slice(0, -1));
  mkdirSync(sourceDir, { recursive: true });
  writeFileSync(join(sourceDir, `${mainClass.split(".").pop() ?? "App"}.java`), source);
  const { harvest } = isolateMaven(programDir, stateDir);
  return { env: javaProgramEnv(stackEnv), harvest };
}
