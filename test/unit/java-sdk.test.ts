/**
 * What java-sdk.mjs writes around pulumi-java-gen's sources, read
 * from the committed schema.json: the Maven coordinates (group from the
 * GitHub owner of the plugin's download URL, artifact the package's name),
 * the pom that fills version.txt and plugin.json, and the refusals that name
 * the schema setting to fix before any generator runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateJavaSdk, githubRepository, javaPackage, mavenCoordinates, pluginJson, pomXml, resourceDir, type PackageSchemaForJava, pulumiJavaVersion } from "../support/project-scripts";
import schemaJson from "../../schema.json";

const schema = schemaJson as unknown as PackageSchemaForJava;

describe("the Java SDK's Maven build", () => {
  it("is io.github.<owner>:<package name> at the schema's version, in the Java package com.github.<owner>.agenthosting", () => {
    expect(githubRepository(schema)).toEqual({ owner: "agent-hosting", repo: "pulumi-agent-hosting" });
    expect(mavenCoordinates(schema)).toEqual({ groupId: "io.github.agent-hosting", artifactId: "agent-hosting", version: schema.version });
    expect(javaPackage(schema)).toBe("com.github.agent_hosting.agenthosting");
    expect(resourceDir(schema)).toBe("com/github/agent_hosting/agent-hosting");
  });

  it("the pom depends on com.pulumi:pulumi at the pinned pulumi-java version and filters the resources that carry its version", () => {
    const pom = pomXml(schema);
    expect(pom).toContain("<groupId>io.github.agent-hosting</groupId>\n  <artifactId>agent-hosting</artifactId>\n  <version>" + schema.version + "</version>");
    expect(pom).toContain(`<artifactId>pulumi</artifactId>\n      <version>${pulumiJavaVersion()}</version>`);
    expect(pom).toMatch(/<directory>src\/main\/resources<\/directory>\s*<filtering>true<\/filtering>/);
    expect(JSON.parse(pluginJson(schema))).toEqual({ resource: true, name: "agent-hosting", version: "${project.version}", server: schema.pluginDownloadURL });
  });

  it("refuses a schema whose Java settings pulumi-java could not serve, naming the setting", () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-hosting-java-sdk-unit-"));
    try {
      const write = (java: Record<string, string>) => {
        const path = join(dir, "schema.json");
        writeFileSync(path, JSON.stringify({ ...schema, language: { ...schemaJson.language, java } }));
        return path;
      };
      expect(() => generateJavaSdk(write({ basePackage: "com.github.agent_hosting" }), join(dir, "out"))).toThrow(/language\.java must set basePackage and buildFiles "none"/);
      expect(() => generateJavaSdk(write({ basePackage: "io.github.agent_hosting", buildFiles: "none" }), join(dir, "out"))).toThrow(
        /basePackage io\.github\.agent_hosting must start with "com\.": pulumi-java finds an SDK's plugin\.json only under com\//,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
