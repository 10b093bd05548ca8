/**
 * Public exports of pulumi-agent-hosting.
 *
 * The client (undici, zod) and the emulator (node:http) are loaded on first
 * use: a program that only declares agents does not pay for them at start.
 */
import type * as ClientModule from "./client/client";
import type * as EmulatorModule from "./emulator";

export { Agent } from "./resources/agent/dynamic-agent";
export type { AgentArgs, AgentAutoScalingArgs } from "./resources/agent/dynamic-agent";
export { getSecretSet, getSecretSetOutput } from "./functions/get-secret-set";
export type { GetSecretSetArgs, GetSecretSetOutputArgs, GetSecretSetResult } from "./functions/get-secret-set";
export { getAgentLogs, getAgentLogsOutput } from "./functions/get-agent-logs";
export { getImageDigest, getImageDigestOutput } from "./functions/get-image-digest";
export type { GetImageDigestArgs, GetImageDigestOutputArgs, GetImageDigestResult } from "./functions/get-image-digest";
export type { OutputCallOptions } from "./functions/output-call";
export type { GetAgentLogsArgs, GetAgentLogsOutputArgs, GetAgentLogsResult } from "./functions/get-agent-logs";
export { ProgramCallError } from "./functions/program-call-error";
export * from "./client/errors";
// The client's requests and the service's answers, as plain generated declarations (src/client/request-types.ts, answer-types.ts).
export type { AgentLogsQuery, AutoScalingRequest, CreateAgentBody, LogOrder, UpdateAgentBody } from "./client/request-types";
export type {
  AgentAutoScalingStatus,
  Deployment,
  ErrorBody,
  LogEntry,
  LogResult,
  LogTotal,
  Manifest,
  ManifestMetadata,
  ManifestNoiseModels,
  ManifestSpec,
  SecretSet,
  SecretSetField,
  ServiceAgent,
} from "./client/answer-types";
export type { AgentInputs, AgentOutputs } from "./resources/agent/inputs-outputs";
export type { AgentHostingClientOptions, CallOptions, IterateLogsArgs, RetryNote, RetryPacing, UndiciDispatcher } from "./client/client";
export {
  resolveSettings,
  API_KEY_CONFIG,
  BASE_URL_CONFIG,
  ALLOW_INSECURE_HTTP_CONFIG,
  API_KEY_ENV,
  BASE_URL_ENV,
  ALLOW_INSECURE_HTTP_ENV,
} from "./core/settings";
export type { EmulatorOptions, RunningEmulator, FaultSpec, RateLimitSpec, Stats } from "./emulator";

export type AgentHostingClient = ClientModule.AgentHostingClient;
export declare const AgentHostingClient: typeof ClientModule.AgentHostingClient;
export type EmulatorControl = EmulatorModule.EmulatorControl;
export declare const EmulatorControl: typeof EmulatorModule.EmulatorControl;
export declare const startEmulator: typeof EmulatorModule.startEmulator;

/* eslint-disable @typescript-eslint/no-require-imports */
const lazy: Record<string, () => unknown> = {
  AgentHostingClient: () => (require("./client/client") as typeof ClientModule).AgentHostingClient,
  EmulatorControl: () => (require("./emulator") as typeof EmulatorModule).EmulatorControl,
  startEmulator: () => (require("./emulator") as typeof EmulatorModule).startEmulator,
};
/* eslint-enable @typescript-eslint/no-require-imports */
for (const [name, load] of Object.entries(lazy)) {
  Object.defineProperty(exports, name, { enumerable: true, get: load });
}
