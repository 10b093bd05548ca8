/** Public exports of pulumi-agent-hosting (design section 2). */
export { Agent } from "./resources/agent";
export type { AgentArgs, AgentAutoScalingArgs } from "./resources/agent";
export { getSecretSet, getSecretSetOutput } from "./functions/get-secret-set";
export type { GetSecretSetArgs, GetSecretSetOutputArgs, GetSecretSetResult } from "./functions/get-secret-set";
export { getAgentLogs, getAgentLogsOutput } from "./functions/get-agent-logs";
export type { GetAgentLogsArgs, GetAgentLogsOutputArgs, GetAgentLogsResult } from "./functions/get-agent-logs";
export { AgentHostingClient } from "./client/client";
export type { AgentHostingClientOptions } from "./client/client";
export * from "./client/errors";
export type * from "./client/schemas";
export { resolveSettings, API_KEY_CONFIG, BASE_URL_CONFIG, API_KEY_ENV, BASE_URL_ENV } from "./config";
export { startEmulator, EmulatorControl } from "./emulator";
export type { EmulatorOptions, RunningEmulator } from "./emulator";
