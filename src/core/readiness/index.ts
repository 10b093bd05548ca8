/** The readiness wait: one loop, its gate, its progress lines and its not-ready message. */
export { waitForReady, WaitFailure, nextPollDelay } from "./wait";
export type { WaitRequest, WaitResult } from "./wait";
export { PollGate } from "./poll-gate";
export { progressReporter, formatProgress, PROGRESS_FIRST_MS, PROGRESS_INTERVAL_MS } from "./progress";
export type { PollObservation, ProgressReporter } from "./progress";
export { notReadyMessage } from "./not-ready";
export type { NotReady } from "./not-ready";
export type { Watched } from "./watched";
