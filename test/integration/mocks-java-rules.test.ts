/**
 * sdk/java's mocks (com.github.agent_hosting.agenthosting.testing, generated
 * by scripts/lib/java-mocks.mjs) held to the TypeScript ones as the Python and
 * Go mocks are: the same verdicts, fields and reasons as the provider's check
 * for every bad input and edge case, the same reference failures, and the
 * outputs of valid inputs equal to the TypeScript mocks', derived ids
 * included. The cases run through a probe compiled with javac against the
 * package's sources and com.pulumi:pulumi 1.16.0 (Maven copies it and its
 * dependencies once).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { QUICK_START_JVM_FLAGS, quickStartMavenEnv } from "../e2e/support/java-program";
import { REGISTRY } from "../../src/registry";
import { agentHostingMocks } from "../../src/testing";
import { BAD_INPUTS } from "../support/bad-inputs";
import { CHECK_CASES, DIGEST_CASES, SETS, VALID_INPUTS, typescriptDigests, typescriptFailures } from "./support/mock-rule-cases";

const AGENT = REGISTRY.resources.find((r) => r.name === "Agent")!;
const PACKAGE = join(__dirname, "../../sdk/java/src/main/java/com/github/agent_hosting/agenthosting/testing");

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>probe</groupId>
  <artifactId>probe</artifactId>
  <version>1</version>
  <dependencies>
    <dependency><groupId>com.pulumi</groupId><artifactId>pulumi</artifactId><version>1.16.0</version></dependency>
  </dependencies>
</project>
`;

const PROBE = `package com.github.agent_hosting.agenthosting.testing;

import com.google.gson.Gson;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public final class Probe {
    @SuppressWarnings("unchecked")
    public static void main(String[] argv) {
        Map<String, Object> request = new Gson().fromJson(new InputStreamReader(System.in, StandardCharsets.UTF_8), Map.class);
        List<Object> checks = new ArrayList<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) request.get("checks")) {
            List<List<String>> found = new ArrayList<>();
            for (MockRules.Failure f : MockRules.checkAgent((Map<String, Object>) c.get("args"), (Map<String, List<String>>) c.get("sets"))) found.add(List.of(f.property, f.reason));
            checks.add(found);
        }
        List<Object> outputs = new ArrayList<>();
        for (Map<String, Object> args : (List<Map<String, Object>>) request.get("outputs")) {
            Map.Entry<String, Map<String, Object>> created = MockOutputs.agentOutputs(args);
            outputs.add(List.of(created.getKey(), created.getValue()));
        }
        List<Object> digests = new ArrayList<>();
        Map<String, Object> digestCases = (Map<String, Object>) request.get("digests");
        for (String image : (List<String>) digestCases.get("images")) digests.add(MockDigests.imageDigest(image, (Map<String, String>) digestCases.get("given")));
        System.out.println(new Gson().toJson(Map.of("checks", checks, "outputs", outputs, "digests", digests)));
    }
}
`;

const work = mkdtempSync(join(tmpdir(), "agent-hosting-java-mocks-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The Java mocks' verdicts and outputs, from one run of the probe. */
function java(request: object): { checks: [string, string][][]; outputs: [string, Record<string, unknown>][]; digests: unknown[] } {
  writeFileSync(join(work, "pom.xml"), POM);
  execFileSync("mvn", ["-q", "-B", "dependency:copy-dependencies", `-DoutputDirectory=${join(work, "lib")}`], { cwd: work, env: quickStartMavenEnv(process.env), stdio: ["ignore", "ignore", "pipe"] });
  const sources = join(work, "src");
  mkdirSync(sources, { recursive: true });
  cpSync(PACKAGE, sources, { recursive: true });
  writeFileSync(join(sources, "Probe.java"), PROBE);
  const classpath = `${join(work, "lib")}/*`;
  const files = readdirSync(sources).map((name) => join(sources, name));
  execFileSync("javac", [...QUICK_START_JVM_FLAGS.map((flag) => `-J${flag}`), "--release", "11", "-cp", classpath, "-d", join(work, "classes"), ...files], { stdio: ["ignore", "ignore", "pipe"] });
  const out = execFileSync("java", [...QUICK_START_JVM_FLAGS, "-cp", `${join(work, "classes")}:${classpath}`, "com.github.agent_hosting.agenthosting.testing.Probe"], {
    input: JSON.stringify(request),
    encoding: "utf8",
  });
  return JSON.parse(out);
}

const answers = java({ checks: CHECK_CASES.map((c) => ({ args: c.args, sets: c.sets })), outputs: VALID_INPUTS, digests: DIGEST_CASES });

describe("the Java mocks' getImageDigest", () => {
  it("answers as the TypeScript mocks': the digest given, a derived one, a digest-form image's own", async () => {
    expect(answers.digests).toEqual(await typescriptDigests());
  });
});

describe("the Java mocks' generated rules against the provider's check", () => {
  it.each(CHECK_CASES.map((c, i) => [c.label, c, i] as const))("%s: the same fields and reasons", async (_label, c, i) => {
    expect(answers.checks[i]).toEqual(await typescriptFailures(c.args, c.sets ?? undefined));
  });

  it("refuses every bad input of test/support/bad-inputs.ts", () => {
    expect(BAD_INPUTS.filter((_c, i) => answers.checks[i]?.length === 0).map((c) => c.label)).toEqual([]);
  });
});

describe("the Java mocks' outputs against the TypeScript mocks'", () => {
  it.each(VALID_INPUTS.map((args, i) => [JSON.stringify(args), args, i] as const))("%s: equal, derived ids included", async (_label, args, i) => {
    const { id, state } = await agentHostingMocks({ secretSets: SETS }).newResource({ type: AGENT.nativeType, name: "bot", inputs: args });
    expect(answers.outputs[i]).toEqual([id, state]);
  });
});
