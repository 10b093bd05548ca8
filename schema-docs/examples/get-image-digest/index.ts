import * as agenthosting from "pulumi-agent-hosting/native";

const build = agenthosting.getImageDigestOutput({ image: "registry.example.com/voice-bot:main" });

const bot = new agenthosting.Agent("bot", {
    serviceName: "voice-bot",
    image: build.pinnedImage,
});

export const digest = build.digest;
export const deployedImage = bot.image;
