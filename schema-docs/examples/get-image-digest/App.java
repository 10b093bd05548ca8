package generated_program;

import com.github.agent_hosting.agenthosting.Agent;
import com.github.agent_hosting.agenthosting.AgentArgs;
import com.github.agent_hosting.agenthosting.AgenthostingFunctions;
import com.github.agent_hosting.agenthosting.inputs.GetImageDigestArgs;
import com.github.agent_hosting.agenthosting.outputs.GetImageDigestResult;
import com.pulumi.Context;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        var build = AgenthostingFunctions.getImageDigest(GetImageDigestArgs.builder()
            .image("registry.example.com/voice-bot:main")
            .build());

        var bot = new Agent("bot", AgentArgs.builder()
            .serviceName("voice-bot")
            .image(build.applyValue(GetImageDigestResult::pinnedImage))
            .build());

        ctx.export("digest", build.applyValue(GetImageDigestResult::digest));
        ctx.export("deployedImage", bot.image());
    }
}
