import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { callSignal } from "../../src/core/call-signal";

describe("a call's signal", () => {
  it("is aborted with the provider's signal and its reason", () => {
    const provider = new AbortController();
    const calls = [callSignal(provider.signal), callSignal(provider.signal)];
    const reason = new Error("the engine cancelled the operation");
    provider.abort(reason);
    expect(calls.map((c) => c.signal.reason)).toEqual([reason, reason]);
  });

  it("holds the provider's signal to one listener per call in flight, none once released", () => {
    const provider = new AbortController();
    const calls = Array.from({ length: 3 }, () => callSignal(provider.signal));
    // The call's own sleeps and requests listen on the call's signal, not the provider's.
    for (const call of calls) for (let i = 0; i < 5; i++) call.signal.addEventListener("abort", () => undefined);
    expect(getEventListeners(provider.signal, "abort")).toHaveLength(3);
    for (const call of calls) call.release();
    expect(getEventListeners(provider.signal, "abort")).toHaveLength(0);
    provider.abort(new Error("late"));
    expect(calls.every((c) => !c.signal.aborted)).toBe(true);
  });

  it("starts aborted when the provider's signal already is", () => {
    const provider = new AbortController();
    const reason = new Error("cancelled before the call");
    provider.abort(reason);
    const call = callSignal(provider.signal);
    expect(call.signal.reason).toBe(reason);
    call.release();
  });
});
