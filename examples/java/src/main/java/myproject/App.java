// A voice agent on the Agent Hosting Service, declared in Java.
//
//   pulumi config set agent-hosting:baseUrl https://<your-service-host>/v1
//   pulumi config set --secret agent-hosting:apiKey <private API token>
//   pulumi up
package myproject;

import com.github.agent_hosting.agenthosting.Agent;
import com.github.agent_hosting.agenthosting.AgentArgs;
import com.github.agent_hosting.agenthosting.AgenthostingFunctions;
import com.github.agent_hosting.agenthosting.inputs.AgentAutoScalingArgs;
import com.github.agent_hosting.agenthosting.inputs.GetAgentLogsArgs;
import com.github.agent_hosting.agenthosting.inputs.GetSecretSetArgs;
import com.github.agent_hosting.agenthosting.outputs.Manifest;
import com.github.agent_hosting.agenthosting.outputs.ManifestSpec;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import java.util.stream.Collectors;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    /** The stack's resources and outputs; AppTest runs it under the package's mocks. */
    static void stack(Context ctx) {
        var secretSet = ctx.config().get("secretSet").orElse("voice-bot-secrets");

        var bot = new Agent("bot", AgentArgs.builder()
            .serviceName("voice-bot")
            .image("registry.example.com/voice-bot:1.4.2")
            .secretSet(secretSet)
            .autoScaling(AgentAutoScalingArgs.builder().minAgents(1).maxAgents(5).build())
            .enableNoise(true)
            .build());

        // The field names of the secret set the agent loads (values are never returned).
        var secrets = AgenthostingFunctions.getSecretSet(GetSecretSetArgs.builder().name(secretSet).build());
        // The newest lines of the agent's logs, once it is ready.
        var logs = AgenthostingFunctions.getAgentLogs(GetAgentLogsArgs.builder().agentName(bot.name()).limit(5).build());

        ctx.export("deploymentId", bot.activeDeploymentId());
        // The image the service runs, from the agent's manifest.
        ctx.export("deployedImage", bot.manifest().applyValue(m -> m.flatMap(Manifest::spec).flatMap(ManifestSpec::image).orElse("")));
        ctx.export("secretFields", secrets.applyValue(s -> s.fieldNames()));
        ctx.export("newestLogLines", logs.applyValue(l -> l.logs().stream().map(e -> e.log()).collect(Collectors.toList())));
    }
}
