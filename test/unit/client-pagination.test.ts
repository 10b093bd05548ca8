/**
 * AgentHostingClient.iterateAgentLogs: page by page over a fake log store
 * served by a MockAgent reply callback that honours limit and offset.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/client/errors";
import { JSON_REPLY, collect, errorJson, logEntries, makeHarness, rejectionOf, type Harness } from "./support/client-harness";

const LOGS_PATH = "/v1/agents/voice-bot/logs";

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  await h.finish();
});

interface Store {
  entries: { log: string; timestamp: string }[];
  /** What the service reports as total; by default the exact count with "eq". */
  total?: { value: number; relation: string };
}

/** Serves pages of `store` for any number of requests (each recorded in the call history). */
function serve(store: Store): void {
  h.api
    .intercept({ path: (p: string) => p.split("?")[0] === LOGS_PATH, method: "GET" })
    .reply((opts) => {
      const params = new URL(opts.path, "http://api.test").searchParams;
      const limit = Number(params.get("limit") ?? "10");
      const offset = Number(params.get("offset") ?? "0");
      const total = store.total ?? { value: store.entries.length, relation: "eq" };
      return {
        statusCode: 200,
        data: JSON.stringify({ total, logs: store.entries.slice(offset, offset + limit) }),
        responseOptions: JSON_REPLY,
      };
    })
    .persist();
}

const pages = () => h.calls().map((c) => ({ offset: c.searchParams["offset"], limit: c.searchParams["limit"] }));

describe("iterateAgentLogs", () => {
  it("2500 entries with pageSize 1000: exactly 3 requests (offsets 0, 1000, 2000), 2500 entries in order", async () => {
    const entries = logEntries(0, 2500);
    serve({ entries });

    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 1000 }));

    expect(pages()).toEqual([
      { offset: "0", limit: "1000" },
      { offset: "1000", limit: "1000" },
      { offset: "2000", limit: "1000" },
    ]);
    expect(got).toHaveLength(2500);
    expect(got).toEqual(entries);
    expect(got[0]?.timestamp).toBe("2024-05-01T10:00:00.000000000Z");
    expect(got[2499]?.timestamp).toBe("2024-05-01T10:00:00.000002499Z");
    for (const call of h.calls()) expect(call.path).toBe(LOGS_PATH);
  });

  it("pages of 1000 by default", async () => {
    serve({ entries: logEntries(0, 1500) });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot" }));
    expect(got).toHaveLength(1500);
    expect(pages()).toEqual([
      { offset: "0", limit: "1000" },
      { offset: "1000", limit: "1000" },
    ]);
  });

  it("an exact multiple of the page size stops on total (eq) without an empty extra request", async () => {
    serve({ entries: logEntries(0, 2000) });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 1000 }));
    expect(got).toHaveLength(2000);
    expect(pages()).toEqual([
      { offset: "0", limit: "1000" },
      { offset: "1000", limit: "1000" },
    ]);
  });

  it("stops early on a short page, even when total claims more", async () => {
    serve({ entries: logEntries(0, 300), total: { value: 5000, relation: "eq" } });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 1000 }));
    expect(got).toHaveLength(300);
    expect(pages()).toEqual([{ offset: "0", limit: "1000" }]);
  });

  it("an empty result makes one request and yields nothing", async () => {
    serve({ entries: [] });
    expect(await collect(h.client.iterateAgentLogs({ agentName: "voice-bot" }))).toEqual([]);
    expect(h.calls()).toHaveLength(1);
  });

  it("`limit` caps the total: 1500 of 2500 in two requests, the second asking for 500 only", async () => {
    const entries = logEntries(0, 2500);
    serve({ entries });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 1000, limit: 1500 }));
    expect(got).toEqual(entries.slice(0, 1500));
    expect(pages()).toEqual([
      { offset: "0", limit: "1000" },
      { offset: "1000", limit: "500" },
    ]);
  });

  it("`limit` below the page size makes a single request of that size", async () => {
    serve({ entries: logEntries(0, 2500) });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", limit: 10 }));
    expect(got.map((e) => e.log)).toEqual(logEntries(0, 10).map((e) => e.log));
    expect(pages()).toEqual([{ offset: "0", limit: "10" }]);
  });

  it("`limit` above 1000 is a cap on the total, not a page size", async () => {
    serve({ entries: logEntries(0, 5000) });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", limit: 2100 }));
    expect(got).toHaveLength(2100);
    expect(pages()).toEqual([
      { offset: "0", limit: "1000" },
      { offset: "1000", limit: "1000" },
      { offset: "2000", limit: "100" },
    ]);
  });

  it('a total with relation "gte" (capped count) does not stop it early', async () => {
    // The service caps its count at 10000 and says "gte"; there are 10500 entries.
    const entries = logEntries(0, 10_500);
    serve({ entries, total: { value: 10_000, relation: "gte" } });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 1000 }));
    expect(got).toHaveLength(10_500);
    expect(got[10_499]).toEqual(entries[10_499]);
    expect(h.calls()).toHaveLength(11);
    expect(pages()[10]).toEqual({ offset: "10000", limit: "1000" });
  });

  it('the same counts with relation "eq" do stop on total (the relation is what matters)', async () => {
    serve({ entries: logEntries(0, 5), total: { value: 2, relation: "eq" } });
    expect(await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 2 }))).toHaveLength(2);
    expect(h.calls()).toHaveLength(1);
  });

  it('...while with "gte" it goes on until a short page', async () => {
    serve({ entries: logEntries(0, 5), total: { value: 2, relation: "gte" } });
    expect(await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 2 }))).toHaveLength(5);
    expect(pages()).toEqual([
      { offset: "0", limit: "2" },
      { offset: "2", limit: "2" },
      { offset: "4", limit: "2" },
    ]);
  });

  it("starts from the given offset", async () => {
    const entries = logEntries(0, 25);
    serve({ entries });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", offset: 5, pageSize: 10 }));
    expect(got).toEqual(entries.slice(5));
    expect(pages()).toEqual([
      { offset: "5", limit: "10" },
      { offset: "15", limit: "10" },
    ]);
  });

  it("is lazy: nothing is requested before iteration, and breaking off stops the requests", async () => {
    serve({ entries: logEntries(0, 2500) });
    const iterator = h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 1000 });
    expect(h.calls()).toHaveLength(0);
    let n = 0;
    for await (const _entry of iterator) {
      if (++n === 3) break;
    }
    expect(h.calls()).toHaveLength(1);
  });

  it("a page that fails with 503 is retried at the same offset and the iteration goes on", async () => {
    const entries = logEntries(0, 3);
    h.api
      .intercept({ path: `${LOGS_PATH}?limit=2&offset=0`, method: "GET" })
      .reply(200, { total: { value: 3, relation: "eq" }, logs: entries.slice(0, 2) }, JSON_REPLY);
    // After the first page the window ends at the second after its newest entry (10:00:01).
    h.api.intercept({ path: `${LOGS_PATH}?limit=2&offset=2&endTime=1714557601`, method: "GET" }).reply(503, "");
    h.api
      .intercept({ path: `${LOGS_PATH}?limit=2&offset=2&endTime=1714557601`, method: "GET" })
      .reply(200, { total: { value: 3, relation: "eq" }, logs: entries.slice(2) }, JSON_REPLY);

    expect(await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 2 }))).toEqual(entries);
    expect(pages()).toEqual([
      { offset: "0", limit: "2" },
      { offset: "2", limit: "2" },
      { offset: "2", limit: "2" },
    ]);
    expect(h.sleeps).toEqual([500]);
  });

  it("a page that fails with 404 ends the iteration with the NotFoundError", async () => {
    h.api
      .intercept({ path: `${LOGS_PATH}?limit=2&offset=0`, method: "GET" })
      .reply(200, { total: { value: 9, relation: "eq" }, logs: logEntries(0, 2) }, JSON_REPLY);
    h.api
      .intercept({ path: `${LOGS_PATH}?limit=2&offset=2&endTime=1714557601`, method: "GET" })
      .reply(404, errorJson("NOT_FOUND", "gone"), JSON_REPLY);
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const entry of h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 2 })) seen.push(entry.log);
      })(),
    );
    expect(seen).toEqual(["line 0", "line 1"]);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(h.calls()).toHaveLength(2);
  });
});
