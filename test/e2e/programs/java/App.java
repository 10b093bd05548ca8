// The Java program of test/e2e/java-program.test.ts, put in examples/java's
// layout (its pom.xml, class myproject.App): an agent through the default
// provider, a second one through an explicit provider, and both functions in
// their Output and plain forms.
package myproject;

import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import com.pulumi.resources.CustomResourceOptions;
import com.github.agent_hosting.agenthosting.Agent;
import com.github.agent_hosting.agenthosting.AgentArgs;
import com.github.agent_hosting.agenthosting.AgenthostingFunctions;
import com.github.agent_hosting.agenthosting.Provider;
import com.github.agent_hosting.agenthosting.ProviderArgs;
import com.github.agent_hosting.agenthosting.inputs.AgentAutoScalingArgs;
import com.github.agent_hosting.agenthosting.inputs.GetAgentLogsArgs;
import com.github.agent_hosting.agenthosting.inputs.GetAgentLogsPlainArgs;
import com.github.agent_hosting.agenthosting.inputs.GetSecretSetArgs;
import com.github.agent_hosting.agenthosting.inputs.GetSecretSetPlainArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var config = ctx.config();

            var bot = new Agent("bot", AgentArgs.builder()
                .serviceName("java-bot")
                .image(config.get("image").orElse("registry.example.com/bot:1.0"))
                .secretSet("voice-secrets")
                .autoScaling(AgentAutoScalingArgs.builder().minAgents(1).maxAgents(2).build())
                .build());

            var other = new Provider("other", ProviderArgs.builder()
                .apiKey(config.requireSecret("otherKey"))
                .baseUrl(config.require("otherUrl"))
                .build());
            var otherBot = new Agent("other-bot", AgentArgs.builder()
                .serviceName("java-other-bot")
                .image("registry.example.com/other:2.0")
                .build(), CustomResourceOptions.builder().provider(other).build());

            // Output forms, with arguments from the agent.
            var secrets = AgenthostingFunctions.getSecretSet(GetSecretSetArgs.builder().name("voice-secrets").build());
            var logs = AgenthostingFunctions.getAgentLogs(GetAgentLogsArgs.builder()
                .agentName(bot.name())
                .deploymentId(bot.activeDeploymentId())
                .limit(5)
                .build());

            // Plain forms, with plain arguments: an agent made before the program ran.
            var plainSecrets = AgenthostingFunctions.getSecretSetPlain(GetSecretSetPlainArgs.builder().name("voice-secrets").build());
            var plainLogs = AgenthostingFunctions.getAgentLogsPlain(GetAgentLogsPlainArgs.builder().agentName("java-seed").limit(3).build());

            ctx.export("botId", bot.id());
            ctx.export("deploymentId", bot.activeDeploymentId());
            ctx.export("ready", bot.ready());
            ctx.export("otherBotId", otherBot.id());
            ctx.export("secretFields", secrets.applyValue(s -> s.fieldNames()));
            ctx.export("logTotal", logs.applyValue(l -> l.total().value()));
            ctx.export("plainSecretFields", Output.of(plainSecrets).applyValue(s -> s.fieldNames()));
            ctx.export("plainLogCount", Output.of(plainLogs).applyValue(l -> l.logs().size()));
        });
    }
}
