/** The readiness wait: its signal ends it, a failed poll is retried by the loop itself, a lasting failure ends it. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerError, AuthenticationError } from "../../../src/client/errors";
import { PollGate, WaitFailure, waitForReady, type Watched } from "../../../src/core/readiness";

interface Seen {
  ready: boolean;
}

/** A watched resource whose polls answer from `answers` (an Error is thrown), counting them. */
function watched(answers: (Seen | Error)[] = []) {
  const counter = { polls: 0 };
  const resource: Watched<Seen> = {
    label: 'toy "slow"',
    poll: async () => {
      const answer = answers[counter.polls++] ?? { ready: false };
      if (answer instanceof Error) throw answer;
      return answer;
    },
    isReady: (seen) => seen.ready,
    describe: (seen) => `ready=${seen?.ready ?? "?"}`,
    newestLogs: async () => [],
  };
  return { counter, resource };
}

const serverError = () => new ServerError({ status: 503, code: "UNAVAILABLE", message: "busy", method: "GET", path: "/v1/agents/slow" });

describe("the readiness wait and its signal", () => {
  it("rejects with the signal's reason and polls no more once aborted", async () => {
    const { counter, resource } = watched();
    const controller = new AbortController();
    const waiting = waitForReady({ watched: resource, initial: { ready: false }, timeoutMs: 60_000, gate: new PollGate(), signal: controller.signal });
    while (counter.polls < 2) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    const after = counter.polls;
    await new Promise((r) => setTimeout(r, 600));
    expect(counter.polls).toBe(after);
  });

  it("an aborted signal ends the wait before its first poll", async () => {
    const { counter, resource } = watched();
    const waiting = waitForReady({ watched: resource, initial: { ready: false }, timeoutMs: 60_000, gate: new PollGate(), signal: AbortSignal.abort(new Error("stopped")) });
    await expect(waiting).rejects.toThrow("stopped");
    expect(counter.polls).toBe(0);
  });
});

describe("one retry policy: the wait's own loop", () => {
  it("a poll that fails in a transient way is polled again at the next interval, and the wait goes on", async () => {
    const { counter, resource } = watched([serverError(), { ready: true }]);
    const result = await waitForReady({ watched: resource, initial: undefined, timeoutMs: 10_000, gate: new PollGate(), signal: new AbortController().signal });
    expect(result).toEqual({ ready: true, value: { ready: true } });
    expect(counter.polls).toBe(2);
  });

  it("a failure that waiting does not cure ends the wait with the last state seen", async () => {
    const refused = new AuthenticationError({ status: 401, code: "UNAUTHORIZED", message: "bad key", method: "GET", path: "/v1/agents/slow" });
    const { resource } = watched([{ ready: false }, refused]);
    const failure = await waitForReady({ watched: resource, initial: undefined, timeoutMs: 10_000, gate: new PollGate(), signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(WaitFailure);
    expect((failure as WaitFailure<Seen>).error).toBe(refused);
    expect((failure as WaitFailure<Seen>).value).toEqual({ ready: false });
  });

  it("at the deadline it answers not ready, with the last poll's failure", async () => {
    // Every poll fails, however many the wait makes before its deadline on a busy machine.
    const { resource } = watched(Array.from({ length: 20 }, serverError));
    const result = await waitForReady({ watched: resource, initial: undefined, timeoutMs: 1_500, gate: new PollGate(), signal: new AbortController().signal });
    expect(result.ready).toBe(false);
    expect(result.ready === false && result.lastError).toBeInstanceOf(ServerError);
  });
});

describe("a steady schedule", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("each poll falls due one interval after the one before, however long a poll takes", async () => {
    // The clock is vitest's: 400 ms of a poll's answer and 500 ms of a sleep pass exactly, whatever the machine's load.
    vi.useFakeTimers();
    const starts: number[] = [];
    let polls = 0;
    const resource: Watched<Seen> = {
      label: 'toy "slow"',
      // Each poll takes 400 ms: polled again 500 ms after the answer, they would be 900 ms apart.
      poll: async () => {
        starts.push(Date.now());
        await new Promise((r) => setTimeout(r, 400));
        return { ready: ++polls === 4 };
      },
      isReady: (seen) => seen.ready,
      describe: (seen) => `ready=${seen?.ready ?? "?"}`,
      newestLogs: async () => [],
    };
    const waiting = waitForReady({ watched: resource, initial: { ready: false }, timeoutMs: 10_000, gate: new PollGate(), signal: new AbortController().signal });
    await vi.advanceTimersByTimeAsync(5_000);
    const result = await waiting;
    expect(result.ready).toBe(true);
    expect(starts.slice(1).map((at, i) => at - (starts[i] ?? at))).toEqual([500, 500, 500]);
  });
});
