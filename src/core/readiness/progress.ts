/**
 * Signs of life while waiting for readiness, as status lines on the
 * resource's own row. Once the wait has lasted 5 s: each new log line of
 * what is waited for, as it arrives (the logs read at most every 2 s, only
 * lines not shown yet), and then at least every 10 s a line naming the
 * resource, its state, the time waited out of the timeout and the newest log
 * line. A wait that ends within 5 s reads no logs. No key and no input value
 * other than the resource's name is printed.
 */
import { LIVE_LOGS_INTERVAL_MS, PROGRESS_FIRST_MS, PROGRESS_INTERVAL_MS } from "../../client/delays";
import type { Watched } from "./watched";

export { PROGRESS_FIRST_MS, PROGRESS_INTERVAL_MS };

/** At most this many new lines are read at once (the newest of them when more arrived). */
const LIVE_LOGS_PAGE = 50;

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

type Entry = { timestamp: string; log: string };

/** Whole Unix seconds of a timestamp, or undefined when it is not a date the platform reads. */
function secondOf(timestamp: string): number | undefined {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/**
 * The log lines not shown yet, read from a second before the newest one shown
 * (the service's startTime is whole seconds, inclusive or not): the lines of
 * those seconds already shown are remembered and left out.
 */
function logTail<T>(watched: Watched<T>) {
  let shown = new Set<string>();
  let newestSecond: number | undefined;
  const key = (e: Entry) => `${e.timestamp}\u0000${e.log}`;
  return async (value: T): Promise<Entry[]> => {
    const from = newestSecond === undefined ? undefined : newestSecond - 1;
    const entries = await watched.newestLogs(value, LIVE_LOGS_PAGE, from);
    const fresh = entries.filter((e) => !shown.has(key(e)));
    for (const e of fresh) {
      const second = secondOf(e.timestamp);
      if (second !== undefined && (newestSecond === undefined || second > newestSecond)) newestSecond = second;
      shown.add(key(e));
    }
    if (newestSecond !== undefined) {
      const floor = newestSecond - 1;
      shown = new Set([...shown].filter((k) => (secondOf(k.slice(0, k.indexOf("\u0000"))) ?? floor) >= floor));
    }
    return fresh;
  };
}

/**
 * From PROGRESS_FIRST_MS of waiting on: the new log lines at the first poll
 * after each LIVE_LOGS_INTERVAL_MS, each as a line of its own, and the
 * progress line every PROGRESS_INTERVAL_MS, to `sink`.
 */
export function progressReporter<T>(watched: Watched<T>, sink: (line: string) => Promise<void>): ProgressReporter<T> {
  let lastReport = Number.NEGATIVE_INFINITY;
  let lastRead = Number.NEGATIVE_INFINITY;
  let newest = "no log lines yet";
  let unreadable = false;
  const tail = logTail(watched);
  return async (o) => {
    if (o.waitedMs < PROGRESS_FIRST_MS) return;
    if (o.value !== undefined && o.waitedMs - lastRead >= LIVE_LOGS_INTERVAL_MS) {
      lastRead = o.waitedMs;
      try {
        const fresh = await tail(o.value);
        for (const entry of fresh) await sink(`${watched.label}: ${entry.log}`);
        const last = fresh[fresh.length - 1];
        if (last !== undefined) newest = `newest log: ${last.log}`;
        unreadable = false;
      } catch {
        unreadable = true;
      }
    }
    if (o.waitedMs - lastReport < PROGRESS_INTERVAL_MS) return;
    lastReport = o.waitedMs;
    await sink(formatProgress(watched, o, unreadable ? "logs unavailable" : newest));
  };
}
