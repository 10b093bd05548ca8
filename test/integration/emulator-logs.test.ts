/**
 * GET /v1/agents/{name}/logs checked against a brute-force filter of the same
 * entries: every combination of deploymentId, query, startTime, endTime,
 * order, limit and offset gives the page and the total the rules say.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harness, NS_TIMESTAMP, timestampNs, type Harness } from "./support/emulator-harness";

interface Entry {
  deploymentId: string;
  timestamp: string;
  log: string;
}

interface Query {
  deploymentId?: string;
  query?: string;
  startTime?: number;
  endTime?: number;
  order?: "asc" | "desc";
  limit?: number;
  offset?: number;
}

const NS_PER_S = 1_000_000_000n;

/** What the rules of spec 4.2 and design 5 say the answer is. */
function bruteForce(all: Entry[], q: Query): { total: { value: number; relation: string }; logs: { log: string; timestamp: string }[] } {
  const needle = q.query?.toLowerCase();
  const matching = all.filter(
    (e) =>
      (q.deploymentId === undefined || e.deploymentId === q.deploymentId) &&
      (needle === undefined || e.log.toLowerCase().includes(needle)) &&
      (q.startTime === undefined || timestampNs(e.timestamp) > BigInt(q.startTime) * NS_PER_S) &&
      (q.endTime === undefined || timestampNs(e.timestamp) < BigInt(q.endTime) * NS_PER_S),
  );
  const ordered = (q.order ?? "desc") === "asc" ? matching : [...matching].reverse();
  const offset = q.offset ?? 0;
  const page = ordered.slice(offset, offset + (q.limit ?? 10)).map((e) => ({ log: e.log, timestamp: e.timestamp }));
  const total = matching.length > 10_000 ? { value: 10_000, relation: "gte" } : { value: matching.length, relation: "eq" };
  return { total, logs: page };
}

function queryString(q: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let h: Harness;
let all: Entry[];
let dep1: string;
let dep2: string;
/** Whole seconds: the first appended line sits exactly on it. */
let baseS: number;

beforeAll(async () => {
  // Never ready during the test: no "ready" line appears between two reads.
  h = await harness({ readyAfterMs: 3_600_000 });
  dep1 = (await h.call("POST", "/v1/agents", { json: { serviceName: "log-bot", image: "bot:1" } })).body.activeDeploymentId;
  dep2 = (await h.call("POST", "/v1/agents/log-bot", { json: { image: "bot:2" } })).body.activeDeploymentId;
  baseS = Math.floor(Date.now() / 1000) - 3600;
  // Two interleaved series reaching back before the deployments' own lines (the store merges them in time order).
  await h.control.appendLogs("log-bot", 1200, { deploymentId: dep1, prefix: "Alpha Event", startMs: baseS * 1000, intervalMs: 997 });
  await h.control.appendLogs("log-bot", 1300, { deploymentId: dep2, prefix: "beta EVENT", startMs: baseS * 1000 + 500.5, intervalMs: 1013 });
  // And some at "now", after everything else.
  await h.control.appendLogs("log-bot", 40, { prefix: "Gamma tail" });
  all = (await h.control.dumpLogs("log-bot")).entries;
});
afterAll(async () => h?.close());

describe("the entries", () => {
  it("are kept in time order with nanosecond timestamps", async () => {
    expect(all).toHaveLength(8 + 1200 + 1300 + 40);
    for (const e of all) expect(e.timestamp).toMatch(NS_TIMESTAMP);
    for (let i = 1; i < all.length; i++) expect(timestampNs((all[i] as Entry).timestamp) >= timestampNs((all[i - 1] as Entry).timestamp)).toBe(true);
    // Timestamps keep all nine digits (not rounded to milliseconds).
    expect(all.some((e) => !/000000Z$/.test(e.timestamp))).toBe(true);
  });

  it("read unfiltered in pages of 1000, asc and desc, are exactly the entries", async () => {
    for (const order of ["asc", "desc"] as const) {
      const pages: { log: string; timestamp: string }[] = [];
      for (let offset = 0; ; offset += 1000) {
        const r = await h.call("GET", `/v1/agents/log-bot/logs${queryString({ order, limit: 1000, offset })}`);
        expect(r.status).toBe(200);
        expect(r.body.total).toEqual({ value: all.length, relation: "eq" });
        pages.push(...r.body.logs);
        if (r.body.logs.length < 1000) break;
      }
      const expected = all.map((e) => ({ log: e.log, timestamp: e.timestamp }));
      expect(pages).toEqual(order === "asc" ? expected : expected.reverse());
    }
  });
});

describe("filters and paging against a brute-force filter", () => {
  it("hand-picked combinations", async () => {
    const cases: Query[] = [
      {},
      { order: "asc" },
      { limit: 1 },
      { limit: 1000, offset: 2000 },
      { offset: all.length },
      { offset: all.length + 5 },
      { deploymentId: dep1, limit: 1000 },
      { deploymentId: dep2, order: "asc", limit: 1000, offset: 400 },
      { deploymentId: "dep-nope" },
      { query: "event 1", limit: 1000 },
      { query: "EVENT 11", order: "asc", limit: 50 },
      { query: "alpha", deploymentId: dep2 },
      { query: "pulled", limit: 100 },
      { query: "zzz" },
      { query: "" },
      { startTime: baseS },
      { startTime: baseS - 1, order: "asc", limit: 3 },
      { endTime: baseS + 1, order: "asc", limit: 10 },
      { endTime: baseS, limit: 10 },
      { startTime: baseS + 100, endTime: baseS + 200, limit: 1000 },
      { startTime: baseS + 100, endTime: baseS + 101, limit: 1000 },
      { startTime: baseS + 100, endTime: baseS + 100 },
      { startTime: baseS + 500, endTime: baseS + 100 },
      { startTime: baseS + 300, endTime: baseS + 900, query: "beta", deploymentId: dep2, order: "asc", limit: 17, offset: 33 },
    ];
    for (const q of cases) {
      const r = await h.call("GET", `/v1/agents/log-bot/logs${queryString(q)}`);
      expect(r.status, JSON.stringify(q)).toBe(200);
      expect(r.body, JSON.stringify(q)).toEqual(bruteForce(all, q));
    }
  });

  it("a whole second is exclusive at both ends", async () => {
    // The first "Alpha Event" line is exactly at baseS.
    const first = all.find((e) => e.log === "Alpha Event 0") as Entry;
    expect(timestampNs(first.timestamp)).toBe(BigInt(baseS) * NS_PER_S);
    const after = (await h.call("GET", `/v1/agents/log-bot/logs?startTime=${baseS}&order=asc&limit=1000`)).body.logs;
    expect(after.some((l: { log: string }) => l.log === "Alpha Event 0")).toBe(false);
    const before = (await h.call("GET", `/v1/agents/log-bot/logs?endTime=${baseS}&limit=1000`)).body.logs;
    expect(before.some((l: { log: string }) => l.log === "Alpha Event 0")).toBe(false);
    const around = (await h.call("GET", `/v1/agents/log-bot/logs?startTime=${baseS - 1}&endTime=${baseS + 1}`)).body.logs;
    expect(around.map((l: { log: string }) => l.log)).toContain("Alpha Event 0");
  });

  it("300 random combinations", async () => {
    const random = prng(20261123);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    const span = 1400;
    for (let i = 0; i < 300; i++) {
      const q: Query = {};
      const deploymentId = pick([undefined, undefined, dep1, dep2, "dep-none"]);
      if (deploymentId !== undefined) q.deploymentId = deploymentId;
      const query = pick([undefined, undefined, "event", "EVENT 1", "alpha event 2", "Beta", "gamma", "image", "9", "no match here"]);
      if (query !== undefined) q.query = query;
      if (random() < 0.5) q.startTime = baseS - 5 + Math.floor(random() * span);
      if (random() < 0.5) q.endTime = baseS - 5 + Math.floor(random() * span);
      const order = pick([undefined, "asc", "desc"] as const);
      if (order !== undefined) q.order = order;
      const limit = pick([undefined, 1, 2, 10, 33, 100, 999, 1000]);
      if (limit !== undefined) q.limit = limit;
      const offset = pick([undefined, 0, 1, 9, 250, 1199, 2000, 5000]);
      if (offset !== undefined) q.offset = offset;
      const r = await h.call("GET", `/v1/agents/log-bot/logs${queryString(q)}`);
      expect(r.status, JSON.stringify(q)).toBe(200);
      expect(r.body, JSON.stringify(q)).toEqual(bruteForce(all, q));
    }
  });
});

describe("total", () => {
  it("is capped at 10000 with relation gte when more entries match, eq otherwise", async () => {
    await h.call("POST", "/v1/agents", { json: { serviceName: "many-bot", image: "bot:1" } });
    await h.control.appendLogs("many-bot", 12_000, { prefix: "bulk" });
    const many = (await h.control.dumpLogs("many-bot")).entries;
    expect(many).toHaveLength(12_004);
    for (const q of [{}, { query: "bulk" }, { query: "bulk 1", order: "asc" as const }, { query: "bulk 11", limit: 1000, offset: 100 }, { offset: 11_990, limit: 50 }]) {
      const r = await h.call("GET", `/v1/agents/many-bot/logs${queryString(q)}`);
      expect(r.body, JSON.stringify(q)).toEqual(bruteForce(many, q));
    }
    expect((await h.call("GET", "/v1/agents/many-bot/logs")).body.total).toEqual({ value: 10_000, relation: "gte" });
    expect((await h.call("GET", "/v1/agents/many-bot/logs?query=bulk%2011")).body.total).toEqual({ value: 1111, relation: "eq" });
  });

  it("exactly 10000 matching entries is eq", async () => {
    await h.call("POST", "/v1/agents", { json: { serviceName: "ten-k-bot", image: "bot:1" } });
    await h.control.appendLogs("ten-k-bot", 10_000, { prefix: "exact" });
    expect((await h.call("GET", "/v1/agents/ten-k-bot/logs?query=exact")).body.total).toEqual({ value: 10_000, relation: "eq" });
    expect((await h.call("GET", "/v1/agents/ten-k-bot/logs")).body.total).toEqual({ value: 10_000, relation: "gte" });
  });
});

describe("a large log", () => {
  it("100 000 entries read in pages of 1000, newest first, without gaps or repeats", async () => {
    await h.call("POST", "/v1/agents", { json: { serviceName: "big-log-bot", image: "bot:1" } });
    await h.control.appendLogs("big-log-bot", 100_000 - 4, { prefix: "session event" });
    const started = Date.now();
    let previous: bigint | undefined;
    let count = 0;
    let outOfOrder = 0;
    for (let offset = 0; offset < 100_000; offset += 1000) {
      const r = await h.call("GET", `/v1/agents/big-log-bot/logs?limit=1000&offset=${offset}`);
      expect(r.body.logs).toHaveLength(1000);
      for (const entry of r.body.logs as { timestamp: string }[]) {
        const ns = timestampNs(entry.timestamp);
        if (previous !== undefined && !(ns < previous)) outOfOrder++;
        previous = ns;
        count++;
      }
    }
    expect(count).toBe(100_000);
    expect(outOfOrder).toBe(0);
    // Generous: a page is O(limit) when unfiltered. (Speed is measured by the benchmarks, not here.)
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
