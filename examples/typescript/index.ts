import * as ah from "pulumi-agent-hosting";

// An agent: the service runs this container image under the name "voice-bot".
const bot = new ah.Agent("voice-bot", {
  serviceName: "voice-bot",
  image: "registry.example.com/voice-bot:1.4.2",
  autoScaling: { minAgents: 1, maxAgents: 5 },
  enableNoise: true,
});

// The newest lines of its active deployment's logs, read once the agent is ready.
const logs = ah.getAgentLogsOutput({ agentName: bot.name, deploymentId: bot.activeDeploymentId, limit: 5 });

export const agentName = bot.name;
export const ready = bot.ready;
export const deploymentId = bot.activeDeploymentId;
export const manifest = bot.manifest;
export const newestLogLines = logs.logs.apply((entries) => entries.map((e) => `${e.timestamp} ${e.log}`));
