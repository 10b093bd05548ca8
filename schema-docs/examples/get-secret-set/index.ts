import * as agenthosting from "pulumi-agent-hosting/native";

const secrets = agenthosting.getSecretSetOutput({ name: "voice-bot-secrets" });

const bot = new agenthosting.Agent("bot", {
    serviceName: "voice-bot",
    image: "registry.example.com/voice-bot:1.4.2",
    secretSet: secrets.name,
});

export const secretFields = secrets.fieldNames;
export const loadedSecretSets = bot.manifest.apply((manifest) => manifest?.spec?.envFromSecretNames);
