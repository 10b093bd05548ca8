/** The message of a wait that ended without readiness: what was waited for, the last state seen, the newest log lines, the fix. */
import { messageOf } from "./wait";
import type { Watched } from "./watched";

export interface NotReady<T> {
  value: T | undefined;
  waitedMs: number;
  lastError: unknown;
}

async function logLines<T>(watched: Watched<T>, value: T): Promise<string[]> {
  try {
    return (await watched.newestLogs(value, 10)).map((e) => `${e.timestamp} ${e.log}`);
  } catch (error) {
    return [`(could not read the logs: ${messageOf(error)})`];
  }
}

/** `after` names the operation (`create`, `update`); `advice` closes the message. */
export async function notReadyMessage<T>(watched: Watched<T>, ended: NotReady<T>, after: string, advice: string): Promise<string> {
  const { value, waitedMs, lastError } = ended;
  const lines = value === undefined ? [] : await logLines(watched, value);
  const state = value === undefined ? "no answer to any poll" : watched.describe(value);
  const failure = lastError === undefined ? "" : `; the last poll failed: ${messageOf(lastError)}`;
  return [
    `${watched.label} did not become ready within ${Math.round(waitedMs / 1000)} s after ${after} (last seen: ${state}${failure})`,
    ...(lines.length > 0 ? ["newest log lines:", ...lines.map((l) => `  ${l}`)] : []),
    advice,
  ].join("\n");
}
