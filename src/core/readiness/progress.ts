/**
 * Signs of life while waiting for readiness: once the wait has lasted 5 s,
 * and then at least every 10 s, a line naming the resource, its state, the
 * time waited out of the timeout and the newest log line. It goes to the
 * engine as a status line on the resource's own row. No key and no input
 * value other than the resource's name is printed.
 */
import { PROGRESS_FIRST_MS, PROGRESS_INTERVAL_MS } from "../../client/delays";
import type { Watched } from "./watched";

export { PROGRESS_FIRST_MS, PROGRESS_INTERVAL_MS };

export interface PollObservation<T> {
  value: T | undefined;
  waitedMs: number;
  timeoutMs: number;
  /** Why the last poll failed, when it did (the wait rides such failures out). */
  lastError?: string;
}

export type ProgressReporter<T> = (observation: PollObservation<T>) => Promise<void>;

export function formatProgress<T>(watched: Watched<T>, o: PollObservation<T>, logLine: string): string {
  const seconds = (ms: number) => Math.round(ms / 1000);
  const failure = o.lastError ? `; last poll failed: ${o.lastError}` : "";
  return `${watched.label}: waiting for readiness, ${watched.describe(o.value)}, ${seconds(o.waitedMs)} s of ${seconds(o.timeoutMs)} s; ${logLine}${failure}`;
}

async function newestLine<T>(watched: Watched<T>, value: T | undefined): Promise<string> {
  if (value === undefined) return "no log lines yet";
  try {
    const [entry] = await watched.newestLogs(value, 1);
    return entry === undefined ? "no log lines yet" : `newest log: ${entry.log}`;
  } catch {
    return "logs unavailable";
  }
}

/** Reports at the first poll after PROGRESS_FIRST_MS of waiting and then every PROGRESS_INTERVAL_MS, to `sink`. */
export function progressReporter<T>(watched: Watched<T>, sink: (line: string) => Promise<void>): ProgressReporter<T> {
  let lastReport = Number.NEGATIVE_INFINITY;
  return async (o) => {
    if (o.waitedMs < PROGRESS_FIRST_MS || o.waitedMs - lastReport < PROGRESS_INTERVAL_MS) return;
    lastReport = o.waitedMs;
    await sink(formatProgress(watched, o, await newestLine(watched, o.value)));
  };
}
