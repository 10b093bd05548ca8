/** Progress lines and the not-ready message of the readiness module, for any watched resource. */
import { describe, expect, it } from "vitest";
import { notReadyMessage, progressReporter, PROGRESS_FIRST_MS, PROGRESS_INTERVAL_MS, type Watched } from "../../../src/core/readiness";

interface Seen {
  phase: string;
}

const watched = (logs: () => Promise<{ timestamp: string; log: string }[]>): Watched<Seen> => ({
  label: 'toy "slow"',
  poll: async () => ({ phase: "starting" }),
  isReady: () => false,
  describe: (seen) => `phase ${seen?.phase ?? "unknown"}`,
  newestLogs: logs,
});

describe("progress lines", () => {
  it("say nothing before the first 5 s, then each new log line as it comes and the state, the time and the newest line at most every 10 s", async () => {
    const lines: string[] = [];
    const report = progressReporter(watched(async () => [{ timestamp: "t1", log: "pulling image" }]), async (line) => void lines.push(line));
    const seen = { phase: "starting" };
    await report({ value: seen, waitedMs: PROGRESS_FIRST_MS - 1, timeoutMs: 60_000 });
    expect(lines).toEqual([]);
    await report({ value: seen, waitedMs: PROGRESS_FIRST_MS, timeoutMs: 60_000, lastError: "503 busy" });
    await report({ value: seen, waitedMs: PROGRESS_FIRST_MS + PROGRESS_INTERVAL_MS - 1, timeoutMs: 60_000 });
    await report({ value: seen, waitedMs: PROGRESS_FIRST_MS + PROGRESS_INTERVAL_MS, timeoutMs: 60_000 });
    expect(lines).toEqual([
      'toy "slow": pulling image',
      'toy "slow": waiting for readiness, phase starting, 5 s of 60 s; newest log: pulling image; last poll failed: 503 busy',
      'toy "slow": waiting for readiness, phase starting, 15 s of 60 s; newest log: pulling image',
    ]);
  });

  it("read the logs at most every 2 s from 5 s on, from a second before the newest line shown, and show each line once", async () => {
    const store: { timestamp: string; log: string }[] = [];
    const asked: (number | undefined)[] = [];
    const logs: Watched<Seen>["newestLogs"] = async (_value, count, startTime) => {
      asked.push(startTime);
      const from = store.filter((e) => startTime === undefined || Date.parse(e.timestamp) / 1000 >= startTime);
      return from.slice(-count);
    };
    const lines: string[] = [];
    const report = progressReporter({ ...watched(async () => []), newestLogs: logs }, async (line) => void lines.push(line));
    const seen = { phase: "starting" };
    const at = (waitedMs: number) => report({ value: seen, waitedMs, timeoutMs: 60_000 });
    store.push({ timestamp: "2026-01-01T00:00:01.100000000Z", log: 'Pulling image "bot:1"' });
    for (const ms of [0, 500, 4_999]) await at(ms);
    expect(asked).toEqual([]);
    await at(5_000);
    store.push({ timestamp: "2026-01-01T00:00:01.900000000Z", log: "Starting" }, { timestamp: "2026-01-01T00:00:03.000000000Z", log: "Listening" });
    await at(6_500);
    await at(7_000);
    await at(9_000);
    expect(asked).toEqual([undefined, 1767225600, 1767225602]);
    expect(lines).toEqual([
      'toy "slow": Pulling image "bot:1"',
      'toy "slow": waiting for readiness, phase starting, 5 s of 60 s; newest log: Pulling image "bot:1"',
      'toy "slow": Starting',
      'toy "slow": Listening',
    ]);
  });

  it("logs that cannot be read do not stop the line", async () => {
    const lines: string[] = [];
    const report = progressReporter(watched(() => Promise.reject(new Error("down"))), async (line) => void lines.push(line));
    await report({ value: { phase: "x" }, waitedMs: PROGRESS_FIRST_MS, timeoutMs: 60_000 });
    expect(lines[0]).toMatch(/; logs unavailable$/);
  });
});

describe("the not-ready message", () => {
  it("names the resource, the time waited, the last state, the last poll's failure, the newest log lines and the advice", async () => {
    const message = await notReadyMessage(
      watched(async () => [{ timestamp: "t1", log: "boot" }, { timestamp: "t2", log: "crash" }]),
      { value: { phase: "crashing" }, waitedMs: 2_400, lastError: new Error("503 busy") },
      "update",
      "Fix the image.",
    );
    expect(message).toBe(
      'toy "slow" did not become ready within 2 s after update (last seen: phase crashing; the last poll failed: 503 busy)\nnewest log lines:\n  t1 boot\n  t2 crash\nFix the image.',
    );
  });
});
