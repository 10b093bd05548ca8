/** The readiness wait: one loop, its gate, its progress lines and its not-ready message. */
export { waitForReady, WaitFailure, nextPollDelay, type WaitRequest, type WaitResult } from "./wait";
export { PollGate } from "./poll-gate";
export { progressReporter, formatProgress, PROGRESS_FIRST_MS, PROGRESS_INTERVAL_MS, type PollObservation, type ProgressReporter } from "./progress";
export { notReadyMessage, type NotReady } from "./not-ready";
export type { Watched } from "./watched";
