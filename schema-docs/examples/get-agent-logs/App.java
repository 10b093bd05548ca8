package generated_program;

import com.github.agent_hosting.agenthosting.Agent;
import com.github.agent_hosting.agenthosting.AgentArgs;
import com.github.agent_hosting.agenthosting.AgenthostingFunctions;
import com.github.agent_hosting.agenthosting.inputs.GetAgentLogsArgs;
import com.github.agent_hosting.agenthosting.outputs.LogEntry;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import java.util.stream.Collectors;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        var bot = new Agent("bot", AgentArgs.builder()
            .serviceName("voice-bot")
            .image("registry.example.com/voice-bot:1.4.2")
            .build());

        var logs = AgenthostingFunctions.getAgentLogs(GetAgentLogsArgs.builder()
            .agentName(bot.name())
            .limit(5)
            .order("desc")
            .build());

        ctx.export("matchingEntries", logs.applyValue(result -> result.total().value()));
        ctx.export("newestLogLines", logs.applyValue(result -> result.logs().stream().map(LogEntry::log).collect(Collectors.toList())));
    }
}
