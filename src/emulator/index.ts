/** The emulator of the Agent Hosting Service, a standalone reading of the service's API, as the package root and the tests start and steer it. */
export { startEmulator, MAX_BODY_BYTES } from "./server";
export type { EmulatorOptions, RunningEmulator } from "./server";
export { READINGS, OMITTED_FIELDS, EXTRA_FIELDS } from "./reading";
export { EmulatorControl } from "./control-client";
export type { FaultSpec } from "./faults";
export type { RateLimitSpec } from "./rate-limit";
export type { Stats } from "./counters";
