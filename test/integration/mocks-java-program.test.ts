/**
 * The Java mocks under pulumi-java 1.16's own test support: a program of the
 * SDK's Agent and functions runs with PulumiTest.withMocks(new
 * AgentHostingMocks(...)), compiled with javac against sdk/java's sources and
 * com.pulumi:pulumi 1.16.0. Its outputs are the mocks' (a ready agent, its
 * manifest, the secret set's fields, the newest log lines first, the image
 * pinned to the digest given for it, getImageDigest's answer), and a
 * requiredSecrets field the mocked set lacks fails the run with the preview's
 * reason.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { QUICK_START_JVM_FLAGS, quickStartMavenEnv } from "../e2e/support/java-program";
import { derivedDigest } from "../../src/testing/mock-image-digests";

const SDK = join(__dirname, "../../sdk/java/src/main");

const PROGRAM = `import com.github.agent_hosting.agenthosting.Agent;
import com.github.agent_hosting.agenthosting.AgentArgs;
import com.github.agent_hosting.agenthosting.AgenthostingFunctions;
import com.github.agent_hosting.agenthosting.inputs.AgentAutoScalingArgs;
import com.github.agent_hosting.agenthosting.inputs.GetAgentLogsArgs;
import com.github.agent_hosting.agenthosting.inputs.GetImageDigestArgs;
import com.github.agent_hosting.agenthosting.inputs.GetSecretSetArgs;
import com.github.agent_hosting.agenthosting.testing.AgentHostingMocks;
import com.github.agent_hosting.agenthosting.testing.MockLogs;
import com.pulumi.test.PulumiTest;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

public class MockedProgram {
    public static void main(String[] argv) {
        var mocks = new AgentHostingMocks(
            Map.of("voice-bot-secrets", List.of("OPENAI_API_KEY", "SIP_PASSWORD")),
            Map.of("voice-bot", List.of(MockLogs.Line.of("Starting container agent"), MockLogs.Line.of("Agent ready: accepting sessions"))),
            null).withImageDigests(Map.of("registry.example.com/voice-bot:1.4.2", "sha256:${"e".repeat(64)}"));
        var result = PulumiTest.withMocks(mocks).runTest(ctx -> {
            var bot = new Agent("bot", AgentArgs.builder()
                .serviceName("voice-bot")
                .image("registry.example.com/voice-bot:1.4.2")
                .secretSet("voice-bot-secrets")
                .autoScaling(AgentAutoScalingArgs.builder().minAgents(2).maxAgents(5).build())
                .build());
            var secrets = AgenthostingFunctions.getSecretSet(GetSecretSetArgs.builder().name("voice-bot-secrets").build());
            var logs = AgenthostingFunctions.getAgentLogs(GetAgentLogsArgs.builder().agentName(bot.name()).deploymentId(bot.activeDeploymentId()).limit(5).build());
            ctx.export("ready", bot.ready());
            ctx.export("minReplicas", bot.manifest().applyValue(m -> m.get().spec().get().autoScaling().get().minReplicas()));
            ctx.export("secretFields", secrets.applyValue(s -> String.join(",", s.fieldNames())));
            ctx.export("newestLogLines", logs.applyValue(l -> l.logs().stream().map(e -> e.log()).collect(Collectors.joining("|"))));
            ctx.export("imageDigest", bot.imageDigest().applyValue(d -> d.orElse("")));
            ctx.export("deployedImage", bot.manifest().applyValue(m -> m.get().spec().get().image().get()));
            var other = AgenthostingFunctions.getImageDigest(GetImageDigestArgs.builder().image("registry.example.com/other:2").build());
            ctx.export("otherPinned", other.applyValue(d -> d.pinnedImage()));
        });
        System.out.println("exit=" + result.exitCode());
        for (var key : List.of("ready", "minReplicas", "secretFields", "newestLogLines", "imageDigest", "deployedImage", "otherPinned")) System.out.println(key + "=" + PulumiTest.extractValue(result.output(key)));
        var refused = PulumiTest.withMocks(mocks).runTest(ctx -> new Agent("strict", AgentArgs.builder()
            .serviceName("strict-bot").image("bot:1").secretSet("voice-bot-secrets").requiredSecrets("TWILIO_TOKEN").build()));
        System.out.println("refused exit=" + refused.exitCode() + " " + String.join(" ", refused.errors()).replace("\\n", " "));
        PulumiTest.cleanup();
    }
}
`;

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

const work = mkdtempSync(join(tmpdir(), "agent-hosting-java-program-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function javaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? javaFiles(path) : name.endsWith(".java") ? [path] : [];
  });
}

function run(): string {
  writeFileSync(join(work, "pom.xml"), POM);
  execFileSync("mvn", ["-q", "-B", "dependency:copy-dependencies", `-DoutputDirectory=${join(work, "lib")}`], { cwd: work, env: quickStartMavenEnv(process.env), stdio: ["ignore", "ignore", "pipe"] });
  mkdirSync(join(work, "src"), { recursive: true });
  writeFileSync(join(work, "src", "MockedProgram.java"), PROGRAM);
  const classpath = `${join(work, "lib")}/*`;
  const files = [...javaFiles(join(SDK, "java")), join(work, "src", "MockedProgram.java")];
  execFileSync("javac", [...QUICK_START_JVM_FLAGS.map((flag) => `-J${flag}`), "--release", "11", "-nowarn", "-cp", classpath, "-d", join(work, "classes"), ...files], { stdio: ["ignore", "ignore", "pipe"] });
  return execFileSync("java", [...QUICK_START_JVM_FLAGS, "-cp", `${join(work, "classes")}:${join(SDK, "resources")}:${classpath}`, "MockedProgram"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
}

describe("the Java mocks under PulumiTest.withMocks", () => {
  const out = run();

  it("give the program a ready agent with its manifest, the secret set's fields and the newest log lines first", () => {
    expect(out).toContain("exit=0\n");
    expect(out).toContain("ready=true\n");
    expect(out).toContain("minReplicas=2\n");
    expect(out).toContain("secretFields=OPENAI_API_KEY,SIP_PASSWORD\n");
    expect(out).toContain("newestLogLines=Agent ready: accepting sessions|Starting container agent\n");
  });

  it("pin the image to the digest given for it, and answer getImageDigest with one derived from an image not given", () => {
    expect(out).toContain(`imageDigest=sha256:${"e".repeat(64)}\n`);
    expect(out).toContain(`deployedImage=registry.example.com/voice-bot@sha256:${"e".repeat(64)}\n`);
    expect(out).toContain(`otherPinned=registry.example.com/other@${derivedDigest("registry.example.com/other:2")}\n`);
  });

  it("fail the run on a requiredSecrets field the mocked set lacks, with the preview's reason", () => {
    expect(out).toMatch(/refused exit=32 .*secret set "voice-bot-secrets" lacks the field TWILIO_TOKEN that requiredSecrets names; it has OPENAI_API_KEY, SIP_PASSWORD/);
  });
});
