import { afterEach, describe, expect, it } from "vitest";
import { pausePromiseStackTraces, resumePromiseStackTraces } from "../../src/resources/promise-stack-traces";

describe("promise stack traces while an Agent registers", () => {
  const original = Error.stackTraceLimit;
  afterEach(() => {
    Error.stackTraceLimit = original;
    delete process.env["PULUMI_DEBUG_PROMISE_LEAKS"];
  });

  it("are off between pause and resume, and the limit comes back", () => {
    Error.stackTraceLimit = 17;
    const limit = pausePromiseStackTraces();
    expect(Error.stackTraceLimit).toBe(0);
    expect(new Error("x").stack).toBe("Error: x");
    resumePromiseStackTraces(limit);
    expect(Error.stackTraceLimit).toBe(17);
  });

  it("stay on when PULUMI_DEBUG_PROMISE_LEAKS asks for them", () => {
    process.env["PULUMI_DEBUG_PROMISE_LEAKS"] = "true";
    Error.stackTraceLimit = 12;
    const limit = pausePromiseStackTraces();
    expect(limit).toBeUndefined();
    expect(Error.stackTraceLimit).toBe(12);
    resumePromiseStackTraces(limit);
    expect(Error.stackTraceLimit).toBe(12);
  });
});
