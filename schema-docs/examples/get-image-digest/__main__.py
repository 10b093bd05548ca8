import pulumi
import pulumi_agent_hosting as agent_hosting

build = agent_hosting.get_image_digest_output(image="registry.example.com/voice-bot:main")

bot = agent_hosting.Agent(
    "bot",
    service_name="voice-bot",
    image=build.pinned_image,
)

pulumi.export("digest", build.digest)
pulumi.export("deployedImage", bot.image)
