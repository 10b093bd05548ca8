import pulumi
import pulumi_agent_hosting as agent_hosting

bot = agent_hosting.Agent(
    "bot",
    service_name="voice-bot",
    image="registry.example.com/voice-bot:1.4.2",
)

logs = agent_hosting.get_agent_logs_output(agent_name=bot.name, limit=5, order="desc")

pulumi.export("matchingEntries", logs.total.value)
pulumi.export("newestLogLines", logs.logs.apply(lambda entries: [entry.log for entry in entries]))
