/** The readiness wait as the rest of the package uses it: one loop, its gate, its progress lines and its not-ready message. */
export { waitForReady, WaitFailure } from "./wait";
export type { WaitResult } from "./wait";
export { PollGate } from "./poll-gate";
export { progressReporter, PROGRESS_FIRST_MS, PROGRESS_INTERVAL_MS } from "./progress";
export { notReadyMessage } from "./not-ready";
export type { NotReady } from "./not-ready";
export type { Watched } from "./watched";
