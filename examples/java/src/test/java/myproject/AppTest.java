// A unit test of App under the package's mocks (JUnit 5, `mvn test`): no service, no engine.
package myproject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.agent_hosting.agenthosting.Agent;
import com.github.agent_hosting.agenthosting.AgentArgs;
import com.github.agent_hosting.agenthosting.testing.AgentHostingMocks;
import com.github.agent_hosting.agenthosting.testing.MockLogs;
import com.pulumi.test.PulumiTest;
import com.pulumi.test.TestResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AppTest {
    // The digest the image's tag names, as the registry would answer it: the agent runs the image pinned to it.
    private static final String DIGEST = "sha256:" + "4".repeat(64);

    private static final AgentHostingMocks MOCKS = new AgentHostingMocks(
        Map.of("voice-bot-secrets", List.of("OPENAI_API_KEY", "SIP_PASSWORD")),
        Map.of("voice-bot", List.of(MockLogs.Line.of("Starting container agent"), MockLogs.Line.of("Agent ready: accepting sessions"))),
        null).withImageDigests(Map.of("registry.example.com/voice-bot:1.4.2", DIGEST));

    // pulumi-java's test support keeps one deployment per JVM: each test ends it.
    @AfterEach
    void cleanup() {
        PulumiTest.cleanup();
    }

    private static Object output(TestResult result, String name) {
        return PulumiTest.extractValue(result.output(name));
    }

    @Test
    void theAgentRunsTheDeclaredImagePinnedToItsDigest() {
        var result = PulumiTest.withMocks(MOCKS).runTest(App::stack);
        assertEquals(0, result.exitCode(), String.join("\n", result.errors()));
        assertEquals("registry.example.com/voice-bot@" + DIGEST, output(result, "deployedImage"));
        assertTrue(((String) output(result, "deploymentId")).startsWith("dep-"));
    }

    @Test
    void readsTheSecretSetAndTheNewestLogLinesFirst() {
        var result = PulumiTest.withMocks(MOCKS).runTest(App::stack);
        assertEquals(List.of("OPENAI_API_KEY", "SIP_PASSWORD"), output(result, "secretFields"));
        assertEquals(List.of("Agent ready: accepting sessions", "Starting container agent"), output(result, "newestLogLines"));
    }

    // A refused input fails the run (exit code 32) with the preview's reason in its errors: pulumi-java's mocks cannot throw it to the test.
    @Test
    void theMocksRefuseAServiceNameWithCapitals() {
        var result = PulumiTest.withMocks(MOCKS).runTest(ctx -> new Agent("capital-bot", AgentArgs.builder()
            .serviceName("Voice-Bot")
            .image("registry.example.com/voice-bot:1.4.2")
            .build()));
        assertEquals(32, result.exitCode());
        assertTrue(String.join("\n", result.errors()).contains("serviceName: must match ^[a-z0-9]"), String.join("\n", result.errors()));
    }
}
