import * as agenthosting from "pulumi-agent-hosting/native";

const bot = new agenthosting.Agent("bot", {
    serviceName: "voice-bot",
    image: "registry.example.com/voice-bot:1.4.2",
    autoScaling: { minAgents: 1, maxAgents: 3 },
    enableNoise: true,
    secretSet: "voice-bot-secrets",
    // Checked at preview: the set must hold these fields.
    requiredSecrets: ["OPENAI_API_KEY", "SIP_PASSWORD"],
    // A destroy or replace waits up to 5 minutes for live calls to end.
    drainSeconds: 300,
});

export const deploymentId = bot.activeDeploymentId;
export const deployedImage = bot.manifest.apply((manifest) => manifest?.spec?.image);
