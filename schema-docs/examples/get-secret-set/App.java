package generated_program;

import com.github.agent_hosting.agenthosting.Agent;
import com.github.agent_hosting.agenthosting.AgentArgs;
import com.github.agent_hosting.agenthosting.AgenthostingFunctions;
import com.github.agent_hosting.agenthosting.inputs.GetSecretSetArgs;
import com.github.agent_hosting.agenthosting.outputs.GetSecretSetResult;
import com.github.agent_hosting.agenthosting.outputs.Manifest;
import com.github.agent_hosting.agenthosting.outputs.ManifestSpec;
import com.pulumi.Context;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        var secrets = AgenthostingFunctions.getSecretSet(GetSecretSetArgs.builder()
            .name("voice-bot-secrets")
            .build());

        var bot = new Agent("bot", AgentArgs.builder()
            .serviceName("voice-bot")
            .image("registry.example.com/voice-bot:1.4.2")
            .secretSet(secrets.applyValue(GetSecretSetResult::name))
            .build());

        ctx.export("secretFields", secrets.applyValue(GetSecretSetResult::fieldNames));
        ctx.export("loadedSecretSets", bot.manifest().applyValue(manifest -> manifest.flatMap(Manifest::spec).map(ManifestSpec::envFromSecretNames)));
    }
}
