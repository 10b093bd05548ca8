package generated_program;

import com.github.agent_hosting.agenthosting.Agent;
import com.github.agent_hosting.agenthosting.AgentArgs;
import com.github.agent_hosting.agenthosting.inputs.AgentAutoScalingArgs;
import com.github.agent_hosting.agenthosting.outputs.Manifest;
import com.github.agent_hosting.agenthosting.outputs.ManifestSpec;
import com.pulumi.Context;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        var bot = new Agent("bot", AgentArgs.builder()
            .serviceName("voice-bot")
            .image("registry.example.com/voice-bot:1.4.2")
            .autoScaling(AgentAutoScalingArgs.builder()
                .minAgents(1)
                .maxAgents(3)
                .build())
            .enableNoise(true)
            .secretSet("voice-bot-secrets")
            // Checked at preview: the set must hold these fields.
            .requiredSecrets("OPENAI_API_KEY", "SIP_PASSWORD")
            // A destroy or replace waits up to 5 minutes for live calls to end.
            .drainSeconds(300)
            .build());

        ctx.export("deploymentId", bot.activeDeploymentId());
        ctx.export("deployedImage", bot.manifest().applyValue(manifest -> manifest.flatMap(Manifest::spec).flatMap(ManifestSpec::image)));
    }
}
