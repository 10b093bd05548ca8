import pulumi
import pulumi_agent_hosting as agent_hosting

bot = agent_hosting.Agent(
    "bot",
    service_name="voice-bot",
    image="registry.example.com/voice-bot:1.4.2",
    auto_scaling=agent_hosting.AgentAutoScalingArgs(min_agents=1, max_agents=3),
    enable_noise=True,
    secret_set="voice-bot-secrets",
    # Checked at preview: the set must hold these fields.
    required_secrets=["OPENAI_API_KEY", "SIP_PASSWORD"],
    # A destroy or replace waits up to 5 minutes for live calls to end.
    drain_seconds=300,
)

pulumi.export("deploymentId", bot.active_deployment_id)
pulumi.export("deployedImage", bot.manifest.apply(lambda manifest: manifest.spec.image if manifest and manifest.spec else None))
