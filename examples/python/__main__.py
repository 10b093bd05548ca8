import pulumi
import pulumi_agent_hosting as agent_hosting

# The field names of the secret set the agent loads (its values are never returned).
secrets = agent_hosting.get_secret_set_output(name="voice-bot-secrets")

bot = agent_hosting.Agent(
    "voice-bot",
    service_name="voice-bot",
    image="registry.example.com/voice-bot:1.4.2",
    secret_set=secrets.name,
    auto_scaling=agent_hosting.AgentAutoScalingArgs(min_agents=1, max_agents=5),
    enable_noise=True,
)

# The newest lines of its active deployment's logs, read once the agent is ready.
logs = agent_hosting.get_agent_logs_output(agent_name=bot.name, deployment_id=bot.active_deployment_id, limit=5)

pulumi.export("agentName", bot.name)
pulumi.export("deploymentId", bot.active_deployment_id)
pulumi.export("secretFields", secrets.field_names)
pulumi.export("newestLogLines", logs.logs.apply(lambda entries: [f"{e.timestamp} {e.log}" for e in entries]))
