// A voice agent on the Agent Hosting Service, as a platform team declares it.
//
//   pulumi config set agent-hosting:baseUrl https://<host>/v1
//   pulumi config set --secret agent-hosting:apiKey <key>
//   pulumi up
import * as pulumi from "@pulumi/pulumi";
import * as ah from "pulumi-agent-hosting";

const config = new pulumi.Config();
const secretSetName = config.get("secretSet") ?? "voice-bot-secrets";
const image = config.get("image") ?? "registry.example.com/voice-bot:1.4.2";

// The field names of the secret set the agent loads (values are never returned).
const secrets = ah.getSecretSetOutput({ name: secretSetName });

const bot = new ah.Agent("voice-bot", {
  serviceName: config.get("serviceName") ?? "voice-bot",
  image,
  secretSet: secretSetName,
  autoScaling: { minAgents: 1, maxAgents: 5 },
  enableNoise: true,
});

// The newest lines of the active deployment's logs, once the agent is ready.
const logs = ah.getAgentLogsOutput({
  agentName: bot.name,
  deploymentId: bot.activeDeploymentId,
  limit: 5,
  order: "desc",
});

export const agentName = bot.name;
export const deploymentId = bot.activeDeploymentId;
export const ready = bot.ready;
export const manifest = bot.manifest;
export const secretFields = secrets.fieldNames;
export const newestLogLines = logs.logs.apply((entries) => entries.map((e) => `${e.timestamp} ${e.log}`));
