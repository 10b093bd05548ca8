import * as agenthosting from "pulumi-agent-hosting/native";

// The field names of the secret set the agent loads (its values are never returned).
const secrets = agenthosting.getSecretSetOutput({ name: "voice-bot-secrets" });

// An agent served by the native plugin pulumi-resource-agent-hosting, which the engine fetches on first use.
const bot = new agenthosting.Agent("voice-bot", {
  serviceName: "voice-bot",
  image: "registry.example.com/voice-bot:1.4.2",
  secretSet: secrets.name,
  autoScaling: { minAgents: 1, maxAgents: 5 },
  enableNoise: true,
});

// The newest lines of its active deployment's logs, read once the agent is ready.
const logs = agenthosting.getAgentLogsOutput({ agentName: bot.name, deploymentId: bot.activeDeploymentId, limit: 5 });

export const agentName = bot.name;
export const deploymentId = bot.activeDeploymentId;
export const secretFields = secrets.fieldNames;
export const newestLogLines = logs.logs.apply((entries) => entries.map((e) => `${e.timestamp} ${e.log}`));
