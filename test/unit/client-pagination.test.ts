/**
 * AgentHostingClient.iterateAgentLogs: page by page over a fake log store
 * served by a MockAgent reply callback that honours limit and offset.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/client/errors";
import { JSON_REPLY, collect, errorJson, logEntries, makeHarness, readUntilFailure, type Harness } from "./support/client-harness";

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
      const params = new URL(opts.path, "https://api.test").searchParams;
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

/** The pages requested, as "offset+limit". */
const pages = () => h.calls().map((c) => `${c.searchParams["offset"]}+${c.searchParams["limit"]}`);
const pagesOf = (offsets: number[], limit: number) => offsets.map((offset) => `${offset}+${limit}`);

interface PagingCase {
  label: string;
  /** How many entries the service holds. */
  stored: number;
  /** What the service reports as total; by default the exact count with "eq". */
  total?: { value: number; relation: string };
  args: { pageSize?: number; limit?: number; offset?: number };
  /** The slice of the stored entries the iteration yields. */
  yields: [number, number];
  pages: string[];
}

/** A case of `stored` entries that the service counts as `total` (the exact count with "eq" when not given). */
function paging(label: string, stored: number, args: PagingCase["args"], yields: [number, number], pages: string[], total?: PagingCase["total"]): PagingCase {
  return total === undefined ? { label, stored, args, yields, pages } : { label, stored, args, yields, pages, total };
}
const capped = (value: number) => ({ value, relation: "gte" });
const exactly = (value: number) => ({ value, relation: "eq" });

const PAGING: PagingCase[] = [
  paging("2500 entries with pageSize 1000: exactly 3 requests (offsets 0, 1000, 2000), 2500 entries in order", 2500, { pageSize: 1000 }, [0, 2500], pagesOf([0, 1000, 2000], 1000)),
  paging("pages of 1000 by default", 1500, {}, [0, 1500], pagesOf([0, 1000], 1000)),
  paging("an exact multiple of the page size stops on total (eq) without an empty extra request", 2000, { pageSize: 1000 }, [0, 2000], pagesOf([0, 1000], 1000)),
  paging("stops early on a short page, even when total claims more", 300, { pageSize: 1000 }, [0, 300], ["0+1000"], exactly(5000)),
  paging("an empty result makes one request and yields nothing", 0, {}, [0, 0], ["0+1000"]),
  paging("`limit` caps the total: 1500 of 2500 in two requests, the second asking for 500 only", 2500, { pageSize: 1000, limit: 1500 }, [0, 1500], ["0+1000", "1000+500"]),
  paging("`limit` below the page size makes a single request of that size", 2500, { limit: 10 }, [0, 10], ["0+10"]),
  paging("`limit` above 1000 is a cap on the total, not a page size", 5000, { limit: 2100 }, [0, 2100], ["0+1000", "1000+1000", "2000+100"]),
  // The service caps its count at 10000 and says "gte"; there are 10500 entries.
  // Past a count that is only a lower bound the next page is requested ahead
  // of knowing this one is the last: one request past the end (11000).
  paging('a total with relation "gte" (capped count) does not stop it early; reading ahead past it asks for one page past the end', 10_500, { pageSize: 1000 }, [0, 10_500], pagesOf(Array.from({ length: 12 }, (_, i) => i * 1000), 1000), capped(10_000)),
  paging('the same counts with relation "eq" do stop on total (the relation is what matters)', 5, { pageSize: 2 }, [0, 2], ["0+2"], exactly(2)),
  paging('...while with "gte" it goes on until a short page (and the page after it, requested ahead)', 5, { pageSize: 2 }, [0, 5], pagesOf([0, 2, 4, 6], 2), capped(2)),
  paging("starts from the given offset", 25, { offset: 5, pageSize: 10 }, [5, 25], pagesOf([5, 15], 10)),
];

describe("iterateAgentLogs", () => {
  it.each(PAGING.map((c) => [c.label, c] as const))("%s", async (_label, c) => {
    const entries = logEntries(0, c.stored);
    serve(c.total ? { entries, total: c.total } : { entries });
    const got = await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", ...c.args }));
    expect(got).toEqual(entries.slice(...c.yields));
    expect(pages()).toEqual(c.pages);
    for (const call of h.calls()) expect(call.path).toBe(LOGS_PATH);
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
    expect(pages()).toEqual(pagesOf([0, 2, 2], 2));
    expect(h.sleeps).toEqual([500]);
  });

  it("a page that fails with 404 ends the iteration with the NotFoundError", async () => {
    h.api
      .intercept({ path: `${LOGS_PATH}?limit=2&offset=0`, method: "GET" })
      .reply(200, { total: { value: 9, relation: "eq" }, logs: logEntries(0, 2) }, JSON_REPLY);
    h.api.intercept({ path: `${LOGS_PATH}?limit=2&offset=2&endTime=1714557601`, method: "GET" }).reply(404, errorJson("NOT_FOUND", "gone"), JSON_REPLY);
    const { seen, error } = await readUntilFailure(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 2 }));
    expect(seen.map((e) => e.log)).toEqual(["line 0", "line 1"]);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(h.calls()).toHaveLength(2);
  });
});

const THIRD_PAGE = `${LOGS_PATH}?limit=2&offset=4&order=asc`;

/** Six entries oldest first in pages of two, the first two pages answered once each; the test answers THIRD_PAGE. */
function sixEntriesFirstTwoPagesServed() {
  const entries = logEntries(0, 6);
  const pageAt = (offset: number) => ({ total: { value: 6, relation: "eq" }, logs: entries.slice(offset, offset + 2) });
  for (const offset of [0, 2]) {
    h.api.intercept({ path: `${LOGS_PATH}?limit=2&offset=${offset}&order=asc`, method: "GET" }).reply(200, pageAt(offset), JSON_REPLY);
  }
  return { entries, pageAt };
}

describe("iterateAgentLogs reads one page ahead", () => {
  it("the next page is requested when a page arrives, before its entries are handed out", async () => {
    serve({ entries: logEntries(0, 3000) });
    const requestedWhenHandedOut: number[] = [];
    let n = 0;
    for await (const _entry of h.client.iterateAgentLogs({ agentName: "voice-bot", order: "asc", pageSize: 1000 })) {
      if (n % 1000 === 0) requestedWhenHandedOut.push(h.calls().length);
      n++;
    }
    expect(n).toBe(3000);
    // The first page is read alone (its count is not known yet); the second
    // page's arrival requests the third; the third is the last by the count.
    expect(requestedWhenHandedOut).toEqual([1, 3, 3]);
    expect(pages()).toEqual(pagesOf([0, 1000, 2000], 1000));
  });

  it("breaking off asks for nothing beyond the page already requested ahead", async () => {
    serve({ entries: logEntries(0, 5000) });
    let n = 0;
    for await (const _entry of h.client.iterateAgentLogs({ agentName: "voice-bot", order: "asc", pageSize: 1000 })) {
      if (++n === 1500) break;
    }
    expect(pages()).toEqual(pagesOf([0, 1000, 2000], 1000));
  });

  it("a page requested ahead that fails with 503 is retried, and the iteration goes on", async () => {
    const { entries, pageAt } = sixEntriesFirstTwoPagesServed();
    h.api.intercept({ path: THIRD_PAGE, method: "GET" }).reply(503, "");
    h.api.intercept({ path: THIRD_PAGE, method: "GET" }).reply(200, pageAt(4), JSON_REPLY);
    expect(await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", order: "asc", pageSize: 2 }))).toEqual(entries);
    expect(pages()).toEqual(pagesOf([0, 2, 4, 4], 2));
    expect(h.sleeps).toEqual([500]);
  });

  it("a page requested ahead that fails with 404 ends the iteration there, after every entry before it", async () => {
    const { entries } = sixEntriesFirstTwoPagesServed();
    h.api.intercept({ path: THIRD_PAGE, method: "GET" }).reply(404, errorJson("NOT_FOUND", "gone"), JSON_REPLY);
    const { seen, error } = await readUntilFailure(h.client.iterateAgentLogs({ agentName: "voice-bot", order: "asc", pageSize: 2 }));
    expect(seen).toEqual(entries.slice(0, 4));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it("a page requested ahead and then not wanted is not retried when it fails", async () => {
    sixEntriesFirstTwoPagesServed();
    h.api.intercept({ path: THIRD_PAGE, method: "GET" }).reply(503, "");
    let n = 0;
    for await (const _entry of h.client.iterateAgentLogs({ agentName: "voice-bot", order: "asc", pageSize: 2 })) {
      if (++n === 3) break;
    }
    expect(pages()).toEqual(pagesOf([0, 2, 4], 2));
    expect(h.sleeps).toEqual([]);
  });

  it("newest first, pages are read ahead inside the window pinned by the first page", async () => {
    serve({ entries: logEntries(0, 5) });
    await collect(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 2 }));
    const queries = h.calls().map((c) => c.searchParams);
    expect(queries.map((q) => q["endTime"])).toEqual([undefined, "1714557601", "1714557601"]);
    expect(pages()).toEqual(pagesOf([0, 2, 4], 2));
  });
});

