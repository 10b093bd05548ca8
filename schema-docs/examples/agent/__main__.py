import pulumi
import pulumi_agent_hosting as agent_hosting

bot = agent_hosting.Agent(
    "bot",
    service_name="voice-bot",
    image="registry.example.com/voice-bot:1.4.2",
    auto_scaling=agent_hosting.AgentAutoScalingArgs(min_agents=1, max_agents=3),
    enable_noise=True,
)

pulumi.export("deploymentId", bot.active_deployment_id)
pulumi.export("deployedImage", bot.manifest.apply(lambda manifest: manifest.spec.image if manifest and manifest.spec else None))
