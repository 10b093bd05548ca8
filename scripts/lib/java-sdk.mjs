// The Java SDK (sdk/java): its sources are what pulumi-java's generator
// (pulumi-java-gen, scripts/lib/pulumi-java.mjs) makes of schema.json with no
// build files (schema.json's language.java.buildFiles is "none": the
// generator writes Gradle only); around them this writes the Maven build,
// pom.xml, and the two resources the SDK reads beside its package path,
// version.txt (read by its Utilities class) and plugin.json (read by the Java
// language host to learn which plugin a program needs and where to fetch
// it), which Maven's resource filtering fills with the pom's version.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { pulumiJavaDir, pulumiJavaVersion } from "./pulumi-java.mjs";

/** @typedef {{ name: string, version: string, pluginDownloadURL?: string, language: { java: { basePackage: string } } }} PackageSchemaForJava */

/**
 * The Maven coordinates: the group is the Maven Central namespace that the
 * GitHub owner of the repository proves (io.github.<owner>), the artifact the
 * package's name, as Pulumi's own SDKs are named (com.pulumi:aws).
 * @param {PackageSchemaForJava} schema
 * @returns {{ groupId: string, artifactId: string, version: string }}
 */
export function mavenCoordinates(schema) {
  return { groupId: `io.github.${githubRepository(schema).owner}`, artifactId: schema.name, version: schema.version };
}

/**
 * The GitHub repository the schema's pluginDownloadURL (github://api.github.com/<owner>/<repo>) names.
 * @param {PackageSchemaForJava} schema
 * @returns {{ owner: string, repo: string }}
 */
export function githubRepository(schema) {
  const match = /^github:\/\/api\.github\.com\/([^/]+)\/([^/]+)$/.exec(schema.pluginDownloadURL ?? "");
  if (!match) throw new Error(`schema.json's pluginDownloadURL ${JSON.stringify(schema.pluginDownloadURL)} is not github://api.github.com/<owner>/<repo>`);
  return { owner: match[1], repo: match[2] };
}

/**
 * The Java package of the SDK's classes, as pulumi-java-gen names it: <basePackage>.<name without dashes>.
 * @param {PackageSchemaForJava} schema
 * @returns {string}
 */
export function javaPackage(schema) {
  return `${schema.language.java.basePackage}.${schema.name.replaceAll("-", "")}`;
}

/**
 * Where the SDK's Utilities class reads version.txt (and the host plugin.json): <basePackage>/<name>, as pulumi-java-gen writes it.
 * @param {PackageSchemaForJava} schema
 * @returns {string}
 */
export function resourceDir(schema) {
  return `${schema.language.java.basePackage.replaceAll(".", "/")}/${schema.name}`;
}

const escapeXml = (text) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * pom.xml: a jar with its sources and javadoc jars, built against com.pulumi:pulumi from Maven Central.
 * @param {PackageSchemaForJava} schema
 * @returns {string}
 */
export function pomXml(schema) {
  const { groupId, artifactId, version } = mavenCoordinates(schema);
  const { owner, repo } = githubRepository(schema);
  const url = `https://github.com/${owner}/${repo}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by scripts/gen-sdk.mjs (scripts/lib/java-sdk.mjs) beside the sources pulumi-java-gen generated from schema.json. -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>

  <groupId>${groupId}</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>

  <name>${escapeXml(schema.displayName ?? schema.name)}</name>
  <description>${escapeXml(schema.description ?? "")}</description>
  <url>${url}</url>
  <licenses>
    <license>
      <name>${escapeXml(schema.license)}</name>
      <url>https://spdx.org/licenses/${escapeXml(schema.license)}.html</url>
    </license>
  </licenses>
  <developers>
    <developer>
      <id>${owner}</id>
      <name>${escapeXml(schema.publisher ?? owner)}</name>
      <url>https://github.com/${owner}</url>
    </developer>
  </developers>
  <scm>
    <connection>scm:git:${url}.git</connection>
    <developerConnection>scm:git:${url}.git</developerConnection>
    <url>${url}</url>
  </scm>

  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>11</maven.compiler.release>
    <!-- The time in every jar entry, so the same sources give the same jars; the release passes its own. -->
    <project.build.outputTimestamp>1980-01-01T00:00:02Z</project.build.outputTimestamp>
  </properties>

  <dependencies>
    <dependency>
      <groupId>com.pulumi</groupId>
      <artifactId>pulumi</artifactId>
      <version>${pulumiJavaVersion()}</version>
    </dependency>
    <!-- The generated classes' @Nullable; com.pulumi:pulumi has it at run time only. -->
    <dependency>
      <groupId>com.google.code.findbugs</groupId>
      <artifactId>jsr305</artifactId>
      <version>3.0.2</version>
    </dependency>
    <!-- The testing package's mocks: pulumi's Mocks answer with guava's ImmutableMap, the rules read JSON with gson; com.pulumi:pulumi has both at run time only, at these versions. -->
    <dependency>
      <groupId>com.google.guava</groupId>
      <artifactId>guava</artifactId>
      <version>32.1.2-jre</version>
    </dependency>
    <dependency>
      <groupId>com.google.code.gson</groupId>
      <artifactId>gson</artifactId>
      <version>2.10</version>
    </dependency>
  </dependencies>

  <build>
    <resources>
      <!-- version.txt and plugin.json, filled with this pom's version. -->
      <resource>
        <directory>src/main/resources</directory>
        <filtering>true</filtering>
      </resource>
    </resources>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.1</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.5.2</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-jar-plugin</artifactId>
        <version>3.4.2</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-source-plugin</artifactId>
        <version>3.3.1</version>
        <executions>
          <execution>
            <id>attach-sources</id>
            <goals>
              <goal>jar-no-fork</goal>
            </goals>
          </execution>
        </executions>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-javadoc-plugin</artifactId>
        <version>3.11.2</version>
        <configuration>
          <doclint>none</doclint>
          <notimestamp>true</notimestamp>
          <quiet>true</quiet>
        </configuration>
        <executions>
          <execution>
            <id>attach-javadocs</id>
            <goals>
              <goal>jar</goal>
            </goals>
          </execution>
        </executions>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-install-plugin</artifactId>
        <version>3.1.3</version>
      </plugin>
    </plugins>
  </build>
</project>
`;
}

/**
 * plugin.json as the Java language host reads it: the resource plugin, its version and where the engine fetches it.
 * @param {PackageSchemaForJava} schema
 * @returns {string}
 */
export function pluginJson(schema) {
  const plugin = { resource: true, name: schema.name, version: "${project.version}", server: schema.pluginDownloadURL };
  return `${JSON.stringify(plugin, null, 2)}\n`;
}

/**
 * Writes the Java SDK of schema.json into `outDir` (emptied first).
 * @param {string} schemaPath
 * @param {string} outDir
 * @returns {void}
 */
export function generateJavaSdk(schemaPath, outDir) {
  const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
  if (schema.language?.java?.buildFiles !== "none" || !schema.language.java.basePackage) {
    throw new Error('schema.json\'s language.java must set basePackage and buildFiles "none" (sdk/java is built by its pom.xml)');
  }
  if (!schema.language.java.basePackage.startsWith("com.")) {
    // com.pulumi.bootstrap.internal.PulumiPlugins matches ^com/.+/.+/plugin.json$ only.
    throw new Error(`schema.json's language.java.basePackage ${schema.language.java.basePackage} must start with "com.": pulumi-java finds an SDK's plugin.json only under com/`);
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(dirname(outDir), { recursive: true });
  const gen = join(pulumiJavaDir(), "pulumi-java-gen");
  try {
    // --out is taken relative to the working directory, even when absolute.
    const args = ["generate", "--schema", schemaPath, "--out", basename(outDir), "--build", "none", "--version", schema.version];
    execFileSync(gen, args, { cwd: dirname(outDir), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    throw new Error(`pulumi-java-gen failed on ${schemaPath}:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  }
  const resources = join(outDir, "src/main/resources", resourceDir(schema));
  mkdirSync(resources, { recursive: true });
  writeFileSync(join(resources, "version.txt"), "${project.version}\n");
  writeFileSync(join(resources, "plugin.json"), pluginJson(schema));
  writeFileSync(join(outDir, "pom.xml"), pomXml(schema));
}
