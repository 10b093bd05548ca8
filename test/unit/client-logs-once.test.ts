/**
 * Logs read once: iterateAgentLogs against a fake service (undici MockAgent)
 * that honours order, startTime/endTime (whole seconds, exclusive), limit and
 * offset, and where lines arrive between two pages. Also the rounding of
 * Date bounds and the reversed window.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InputValidationError } from "../../src/client/errors";
import { repeatedHead } from "../../src/client/pagination";
import { JSON_REPLY, collect, makeHarness, rejectionOf, type Harness } from "./support/client-harness";

const LOGS_PATH = "/v1/agents/voice-bot/logs";
/** 2024-05-01T10:00:00Z */
const T0 = 1_714_557_600;

interface Entry {
  log: string;
  timestamp: string;
}

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  await h.finish();
});

/** An entry at `second` (Unix) plus `nanos`. */
function entry(log: string, second: number, nanos: number): Entry {
  const base = new Date(second * 1000).toISOString().slice(0, 19);
  return { log, timestamp: `${base}.${String(nanos).padStart(9, "0")}Z` };
}

const nsOf = (e: Entry) => BigInt(Date.parse(e.timestamp.slice(0, 19) + "Z")) * 1_000_000n + BigInt(e.timestamp.slice(20, 29));

/**
 * Serves `store` as the service would (sorted by time, filters, then the
 * page); `arrive(n)` runs before the n-th request (1-based) is answered.
 */
function serve(store: Entry[], arrive: (request: number) => void = () => {}): void {
  let request = 0;
  h.api
    .intercept({ path: (p: string) => p.split("?")[0] === LOGS_PATH, method: "GET" })
    .reply((opts) => {
      arrive(++request);
      const params = new URL(opts.path, "http://api.test").searchParams;
      const limit = Number(params.get("limit") ?? "10");
      const offset = Number(params.get("offset") ?? "0");
      const start = params.get("startTime");
      const end = params.get("endTime");
      const sorted = [...store].sort((a, b) => (nsOf(a) < nsOf(b) ? -1 : nsOf(a) > nsOf(b) ? 1 : 0));
      const matching = sorted.filter(
        (e) => (start === null || nsOf(e) > BigInt(start) * 1_000_000_000n) && (end === null || nsOf(e) < BigInt(end) * 1_000_000_000n),
      );
      if (params.get("order") !== "asc") matching.reverse();
      return {
        statusCode: 200,
        data: JSON.stringify({ total: { value: matching.length, relation: "eq" }, logs: matching.slice(offset, offset + limit) }),
        responseOptions: JSON_REPLY,
      };
    })
    .persist();
}

const sent = (name: string) => h.calls().map((c) => c.searchParams[name]);

/** 25 lines in second T0+5, 1 ms apart: the newest is "line 24". */
const original = () => Array.from({ length: 25 }, (_, i) => entry(`line ${i}`, T0 + 5, i * 1_000_000));

describe("iterateAgentLogs while lines arrive", () => {
  it("newest first: lines written during the iteration, in the same second or later, are not read and nothing repeats", async () => {
    const store = original();
    serve(store, (request) => {
      if (request !== 2) return;
      // Between the first and second page: 3 lines in the newest entry's second, 4 in a later one.
      for (let i = 0; i < 3; i++) store.push(entry(`same second ${i}`, T0 + 5, 500_000_000 + i));
      for (let i = 0; i < 4; i++) store.push(entry(`later ${i}`, T0 + 6, i));
    });

    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 10 }));

    expect(got.map((e) => e.log)).toEqual(original().reverse().map((e) => e.log));
    // The window is pinned after the first page: before T0+6, the second after the newest entry.
    expect(sent("endTime")).toEqual([undefined, String(T0 + 6), String(T0 + 6)]);
  });

  it("newest first: a line written late, with a timestamp among the entries already read, repeats nothing", async () => {
    const store = original();
    serve(store, (request) => {
      if (request === 2) store.push(entry("late", T0 + 5, 20_500_000)); // between line 20 and line 21
    });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 10 }));
    expect(got.map((e) => e.log)).toEqual(original().reverse().map((e) => e.log));
  });

  it("a caller's endTime earlier than the pin is kept", async () => {
    const store = [...original(), ...Array.from({ length: 5 }, (_, i) => entry(`after ${i}`, T0 + 9, i))];
    serve(store);
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", endTime: T0 + 7, pageSize: 10 }));
    expect(got).toHaveLength(25);
    expect(sent("endTime")).toEqual([String(T0 + 7), String(T0 + 6), String(T0 + 6)]);
  });

  it("from an offset other than 0 the window is not pinned (the first page does not show the newest entry)", async () => {
    serve(original());
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", offset: 5, pageSize: 10 }));
    expect(got.map((e) => e.log)).toEqual(original().reverse().slice(5).map((e) => e.log));
    expect(sent("endTime")).toEqual([undefined, undefined]);
  });

  it("oldest first: lines written during the iteration are read at the end, each once", async () => {
    const store = original();
    serve(store, (request) => {
      if (request === 2) for (let i = 0; i < 4; i++) store.push(entry(`new ${i}`, T0 + 6, i));
      if (request === 3) store.push(entry("early", T0 + 5, 2_500_000)); // among the lines already read
    });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", order: "asc", pageSize: 10 }));
    expect(got.map((e) => e.log)).toEqual([...original().map((e) => e.log), "new 0", "new 1", "new 2", "new 3"]);
    expect(sent("endTime").every((value) => value === undefined)).toBe(true);
  });
});

describe("repeatedHead: how many entries a page repeats from the end of the page before", () => {
  const e = (log: string, timestamp: string) => ({ log, timestamp });
  const newestFirst = [e("c", "2024-05-01T10:00:03.000000000Z"), e("b", "2024-05-01T10:00:02.000000000Z"), e("a", "2024-05-01T10:00:01.000000000Z")];

  it("none when the page moves on", () => {
    expect(repeatedHead(newestFirst, [e("z", "2024-05-01T10:00:00.900000000Z")])).toBe(0);
    expect(repeatedHead([], newestFirst)).toBe(0);
    expect(repeatedHead(newestFirst, [])).toBe(0);
  });

  it("the shifted tail, however long", () => {
    expect(repeatedHead(newestFirst, [e("a", "2024-05-01T10:00:01.000000000Z"), e("z", "2024-05-01T10:00:00.5Z")])).toBe(1);
    expect(repeatedHead(newestFirst, [...newestFirst.slice(1), e("z", "2024-05-01T10:00:00Z")])).toBe(2);
  });

  it("timestamps of mixed precision or offsets are compared entry by entry", () => {
    const mixed = [e("c", "2024-05-01T12:00:03+02:00"), e("b", "2024-05-01T10:00:02.5Z"), e("a", "2024-05-01T10:00:01.25Z")];
    expect(repeatedHead(mixed, [e("a", "2024-05-01T10:00:01.25Z"), e("z", "2024-05-01T10:00:00Z")])).toBe(1);
    expect(repeatedHead(mixed, [e("a", "2024-05-01T10:00:01.250Z")])).toBe(0);
  });

  it("the same text at another time is not a repeat", () => {
    expect(repeatedHead(newestFirst, [e("a", "2024-05-01T10:00:00.000000000Z")])).toBe(0);
  });
});

describe("time bounds", () => {
  it("a Date endTime rounds up and a Date startTime rounds down, so no part of either second is dropped", async () => {
    serve(original());
    const got = await h.client.getAgentLogs({
      agentName: "voice-bot",
      startTime: new Date((T0 + 5) * 1000 + 300),
      endTime: new Date((T0 + 5) * 1000 + 700),
      limit: 1000,
    });
    expect(sent("startTime")).toEqual([String(T0 + 5)]);
    expect(sent("endTime")).toEqual([String(T0 + 6)]);
    // Every line of the second T0+5 after its first instant is in the window (the service cannot cut finer
    // than a second, and "after T0+5" leaves out line 0, which sits on the bound).
    expect(got.logs.map((e) => e.log)).toEqual(original().slice(1).reverse().map((e) => e.log));
  });

  it("a Date on a whole second is that second", async () => {
    serve([]);
    await h.client.getAgentLogs({ agentName: "voice-bot", startTime: new Date(T0 * 1000), endTime: new Date((T0 + 1) * 1000) });
    expect([sent("startTime"), sent("endTime")]).toEqual([[String(T0)], [String(T0 + 1)]]);
  });

  it.each([
    ["Unix seconds", T0 + 10, T0 + 5],
    ["Dates", new Date((T0 + 5) * 1000 + 1), new Date((T0 + 5) * 1000)],
    ["a Date and seconds", new Date((T0 + 6) * 1000), T0 + 5],
  ])("startTime after endTime (%s) is an InputValidationError naming both, before any request", async (_what, startTime, endTime) => {
    for (const attempt of [
      (): Promise<unknown> => h.client.getAgentLogs({ agentName: "voice-bot", startTime, endTime }),
      () => collect(h.client.iterateAgentLogs({ agentName: "voice-bot", startTime, endTime })),
    ]) {
      const error = await rejectionOf(Promise.resolve().then<unknown>(attempt));
      expect(error).toBeInstanceOf(InputValidationError);
      expect((error as InputValidationError).failures.map((f) => f.property)).toEqual(["startTime"]);
      expect((error as Error).message).toMatch(/startTime.*endTime/);
    }
    expect(h.calls()).toHaveLength(0);
  });

  it("startTime equal to endTime is an empty window, not an error", async () => {
    serve(original());
    const got = await h.client.getAgentLogs({ agentName: "voice-bot", startTime: T0 + 5, endTime: T0 + 5 });
    expect(got.logs).toEqual([]);
  });
});
