/** The provider's gate for readiness polls: a bound on polls in flight, a queue in order, and aborts that leave it. */
import { describe, expect, it } from "vitest";
import { PollGate } from "../../../src/core/readiness/poll-gate";

/** A poll that ends when `release()` is called, recording when it started. */
function heldPoll(started: number[], id: number) {
  let release: () => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    release = () => resolve(id);
  });
  return { run: () => (started.push(id), done), release: () => release() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("PollGate", () => {
  it("lets at most maxInFlight polls run at once; the others start in the order they came, as places free", async () => {
    const gate = new PollGate(2);
    const started: number[] = [];
    const polls = [0, 1, 2, 3].map((id) => heldPoll(started, id));
    const results = polls.map((p) => gate.run(p.run));
    await tick();
    expect(started).toEqual([0, 1]);
    polls[1]?.release();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    polls[0]?.release();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    polls[2]?.release();
    polls[3]?.release();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
  });

  it("a queued poll whose signal aborts leaves the queue with the reason and never runs", async () => {
    const gate = new PollGate(1);
    const started: number[] = [];
    const first = heldPoll(started, 0);
    const second = heldPoll(started, 1);
    const third = heldPoll(started, 2);
    const stop = new AbortController();
    const running = gate.run(first.run);
    const queued = gate.run(second.run, stop.signal);
    const after = gate.run(third.run);
    stop.abort(new Error("cancelled"));
    await expect(queued).rejects.toThrow("cancelled");
    first.release();
    await tick();
    expect(started).toEqual([0, 2]);
    third.release();
    await Promise.all([running, after]);
  });
});
