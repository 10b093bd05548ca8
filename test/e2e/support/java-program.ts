/**
 * What a Java program needs to run as users run it, `pulumi` in its
 * directory: pulumi-language-java (pulumi-java.mjs builds it,
 * cached) on PATH, where a Pulumi install puts it beside the CLI, and Maven
 * with a local repository of the program's own, empty at first, so the SDK
 * comes from the repository its pom names and from nowhere else. The
 * machine's ~/.m2 serves every other artifact, as a file:// repository before
 * Maven Central, through a view of it without the SDK's group (symbolic links
 * to everything else), so a jar `mvn install` put there from sdk/java cannot
 * stand in for the one the pom's repository holds; what the program fetched
 * beyond it is copied back afterwards (the SDK's group aside), so the next run
 * finds it warm. The settings reach Maven through the program's
 * .mvn/maven.config, which `mvn` reads in the directory it runs in.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { mavenCoordinates, pulumiJavaDir } from "../../support/project-scripts";
import { repoRoot } from "../../languages/support/drivers";
import { languageHostEnv } from "./language-host-env";
import { mavenClassArchive } from "./maven-class-archive";

const machineRepository = join(homedir(), ".m2", "repository");
const schema = JSON.parse(readFileSync(join(repoRoot, "schema.json"), "utf8")) as Parameters<typeof mavenCoordinates>[0];
/** The SDK's group as a path in a repository: never read from the machine's, never copied into it. */
const sdkGroupPath = mavenCoordinates(schema).groupId.replaceAll(".", "/");

/** The directory holding pulumi-language-java (built on first use). */
export function javaHostDir(): string {
  return pulumiJavaDir();
}

/**
 * The JVM options of the tests' short-lived JVMs: Maven's, which pulumi-language-java runs for each operation
 * (and that runs the program in its own JVM), and javac's and java's where a test runs them itself. The quick
 * compiler only and the serial collector start a short-lived JVM with about a third less CPU on a 2-core
 * machine. They change how fast the JVM gets going, not what the program does. (javac takes each as `-J<flag>`.)
 */
export const QUICK_START_JVM_FLAGS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

/**
 * `env` with Maven's JVM started quickly (QUICK_START_JVM_FLAGS after any MAVEN_OPTS of `env`), with the
 * classes it loads mapped from the machine's archive of them (test/e2e/support/maven-class-archive.ts) when
 * there is one.
 */
export function quickStartMavenEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const options = [env["MAVEN_OPTS"], ...QUICK_START_JVM_FLAGS].filter(Boolean).join(" ");
  const archive = mavenClassArchive(options);
  return { ...env, MAVEN_OPTS: archive ? `${options} -XX:SharedArchiveFile=${archive}` : options };
}

/** A stack's environment for a Java program: pulumi-language-java on PATH (test/e2e/support/language-host-env.ts), Maven's JVM started quickly. */
export function javaProgramEnv(stackEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return quickStartMavenEnv(languageHostEnv(stackEnv, javaHostDir()));
}

/** `pom` with a <repositories> entry for `url` (a Maven repository, e.g. file:// of the release's), as a user adds one. */
export function withRepository(pom: string, id: string, url: string): string {
  const entry = `  <repositories>\n    <repository>\n      <id>${id}</id>\n      <url>${url}</url>\n    </repository>\n  </repositories>\n\n`;
  if (!pom.includes("  <build>")) throw new Error("the program's pom.xml has no <build> to put <repositories> before");
  return pom.replace("  <build>", `${entry}  <build>`);
}

/**
 * The machine's repository as the program's Maven reads it: a new directory under the OS temp dir (outside
 * the stack's, whose files tests read) of symbolic links to the entries of ~/.m2/repository, the SDK's group
 * left out (its parents are directories of links to their other entries). Made when the program is set up;
 * what ~/.m2 gains later is fetched as usual.
 */
export function machineRepositoryView(): string {
  const view = mkdtempSync(join(tmpdir(), "agent-hosting-machine-m2-"));
  linkAllBut(machineRepository, view, sdkGroupPath.split("/"));
  return view;
}

function linkAllBut(from: string, to: string, [left, ...below]: string[]): void {
  if (!existsSync(from)) return;
  for (const entry of readdirSync(from)) {
    if (entry !== left) symlinkSync(join(from, entry), join(to, entry));
    else if (below.length > 0) {
      mkdirSync(join(to, entry));
      linkAllBut(join(from, entry), join(to, entry), below);
    }
  }
}

/**
 * Maven settings for the program in `programDir`: its own local repository under `stateDir`, the machine's
 * through machineRepositoryView. Returns the local repository and `harvest`, which the caller runs once the
 * program is done: it copies back into ~/.m2 what Maven fetched and removes the view.
 */
export function isolateMaven(programDir: string, stateDir: string): { localRepository: string; harvest(): void } {
  const localRepository = join(stateDir, "m2");
  mkdirSync(localRepository, { recursive: true });
  const machineView = machineRepositoryView();
  const settings = join(stateDir, "maven-settings.xml");
  writeFileSync(
    settings,
    `<settings>
  <localRepository>${localRepository}</localRepository>
  <profiles>
    <profile>
      <id>machine-repository</id>
      <repositories>
        <repository>
          <id>machine-m2</id>
          <url>file://${machineView}</url>
          <releases><checksumPolicy>ignore</checksumPolicy></releases>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
      </repositories>
      <pluginRepositories>
        <pluginRepository>
          <id>machine-m2</id>
          <url>file://${machineView}</url>
          <releases><checksumPolicy>ignore</checksumPolicy></releases>
          <snapshots><enabled>false</enabled></snapshots>
        </pluginRepository>
      </pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles>
    <activeProfile>machine-repository</activeProfile>
  </activeProfiles>
</settings>
`,
  );
  mkdirSync(join(programDir, ".mvn"), { recursive: true });
  writeFileSync(join(programDir, ".mvn", "maven.config"), `-s\n${settings}\n`);
  return {
    localRepository,
    harvest: () => {
      rmSync(machineView, { recursive: true, force: true });
      copyNewArtifacts(localRepository, machineRepository);
    },
  };
}

/** Copies files of `from` that `to` lacks, the SDK's group aside; each appears whole (renamed into place), as another Maven may be reading `to`. */
function copyNewArtifacts(from: string, to: string, dir = from): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(from, path);
    if (rel === sdkGroupPath || rel.startsWith(`${sdkGroupPath}/`)) continue;
    if (entry.isDirectory()) copyNewArtifacts(from, to, path);
    else if (!existsSync(join(to, rel)) && !/\.lastUpdated$|^resolver-status|machine-m2/.test(entry.name)) {
      mkdirSync(join(to, relative(from, dir)), { recursive: true });
      const partial = `${join(to, rel)}.${process.pid}.part`;
      cpSync(path, partial);
      renameSync(partial, join(to, rel));
    }
  }
}
