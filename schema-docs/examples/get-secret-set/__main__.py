import pulumi
import pulumi_agent_hosting as agent_hosting

secrets = agent_hosting.get_secret_set_output(name="voice-bot-secrets")

bot = agent_hosting.Agent(
    "bot",
    service_name="voice-bot",
    image="registry.example.com/voice-bot:1.4.2",
    secret_set=secrets.name,
)

pulumi.export("secretFields", secrets.field_names)
pulumi.export("loadedSecretSets", bot.manifest.apply(lambda manifest: manifest.spec.env_from_secret_names if manifest and manifest.spec else None))
