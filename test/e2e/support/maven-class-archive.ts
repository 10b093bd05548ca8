/**
 * A class-data-sharing archive for the JVM that Maven runs in: the classes it
 * loads to compile and run a program (Maven's own, its plugins', javac's),
 * written once per machine, JDK, Maven and JVM options by building a
 * one-class project with `-XX:ArchiveClassesAtExit`, then mapped by every
 * later Maven JVM (`-XX:SharedArchiveFile`), which then loads and links fewer
 * classes itself. It is a cache of the JVM's start, like a build cache: a
 * JVM that cannot use it (another JDK, a damaged file) starts without it,
 * silently, as before. Kept under the tools' cache (scripts/lib/go-tool.mjs's
 * cacheRoot), outside the repository.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot } from "../../support/project-scripts";

/** The build plugins of examples/java/pom.xml, so the archive holds the classes a program's build loads. */
const PROJECT_POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>agent-hosting-tests</groupId>
  <artifactId>maven-class-archive</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <build>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
      <plugin>
        <groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId><version>3.5.0</version>
        <configuration><mainClass>archive.Main</mainClass></configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;

let known: string | null | undefined;

/** The archive's path for Maven's JVM started with `jvmOptions`, written on first use; undefined when it cannot be made here. */
export function mavenClassArchive(jvmOptions: string): string | undefined {
  if (known !== undefined) return known ?? undefined;
  known = null;
  try {
    const tools = execFileSync("sh", ["-c", "command -v java; command -v mvn"], { encoding: "utf8" }).trim().split("\n");
    const identity = tools.map((tool) => `${realpathSync(tool)}@${statSync(realpathSync(tool)).mtimeMs}`).join(" ");
    const key = createHash("sha256").update(`${identity}\n${jvmOptions}`).digest("hex").slice(0, 16);
    const archive = join(cacheRoot, "maven-class-archive", `${key}.jsa`);
    if (!existsSync(archive)) writeArchive(archive, jvmOptions);
    known = archive;
  } catch {
    // No archive: Maven's JVM starts as it would without one.
  }
  return known ?? undefined;
}

/** Builds and runs a one-class project with Maven, its JVM writing the classes it loaded to `archive` at exit. */
function writeArchive(archive: string, jvmOptions: string): void {
  const project = mkdtempSync(join(tmpdir(), "agent-hosting-maven-class-archive-"));
  const partial = `${archive}.${process.pid}.part`;
  try {
    mkdirSync(join(project, "src/main/java/archive"), { recursive: true });
    writeFileSync(join(project, "pom.xml"), PROJECT_POM);
    writeFileSync(join(project, "src/main/java/archive/Main.java"), "package archive;\npublic class Main { public static void main(String[] args) {} }\n");
    mkdirSync(join(archive, ".."), { recursive: true });
    execFileSync("mvn", ["-q", "--no-transfer-progress", "compile", "exec:java"], {
      cwd: project,
      env: { ...process.env, MAVEN_OPTS: `${jvmOptions} -XX:ArchiveClassesAtExit=${partial}` },
      stdio: "ignore",
    });
    renameSync(partial, archive);
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}
