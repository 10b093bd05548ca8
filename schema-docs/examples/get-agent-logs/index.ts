import * as agenthosting from "pulumi-agent-hosting/native";

const bot = new agenthosting.Agent("bot", {
    serviceName: "voice-bot",
    image: "registry.example.com/voice-bot:1.4.2",
});

const logs = agenthosting.getAgentLogsOutput({ agentName: bot.name, limit: 5, order: "desc" });

export const matchingEntries = logs.total.value;
export const newestLogLines = logs.logs.apply((entries) => entries.map((entry) => entry.log));
