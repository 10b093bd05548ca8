/** The emulator of the Agent Hosting Service: a standalone reading of the service's API. */
export { startEmulator, MAX_BODY_BYTES } from "./server";
export type { EmulatorOptions, RunningEmulator } from "./server";
export { READINGS, OMITTED_FIELDS, EXTRA_FIELDS } from "./reading";
export type { ReadingName, ReadingSwitches, ReadyFlagsApart, GetOutage } from "./reading";
export { ROLLOUTS, DEFAULT_ROLLOUT } from "./rollout-modes";
export type { Rollout } from "./rollout-modes";
export { EmulatorControl } from "./control-client";
export type { EmulatorAgentSummary, AppendLogsOptions } from "./control-client";
export type { FaultSpec, FaultKind } from "./faults";
export type { RateLimitSpec } from "./rate-limit";
export type { Stats } from "./counters";
export type { RequestRecord } from "./request-log";
