import * as agenthosting from "pulumi-agent-hosting/native";

const bot = new agenthosting.Agent("bot", {
    serviceName: "voice-bot",
    image: "registry.example.com/voice-bot:1.4.2",
    autoScaling: { minAgents: 1, maxAgents: 3 },
    enableNoise: true,
});

export const deploymentId = bot.activeDeploymentId;
export const deployedImage = bot.manifest.apply((manifest) => manifest?.spec?.image);
