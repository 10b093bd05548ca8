/**
 * GET /v1/agents/{name}/logs against a brute-force filter of the same
 * entries: for many combinations of limit, offset, order, query
 * (case-insensitive substring), deploymentId, startTime and endTime (Unix
 * seconds, strictly after / strictly before) the page and the total are the
 * ones the rules give. Totals are "eq" up to 10 000 matches and
 * { value: 10000, relation: "gte" } above; bad parameters are 400s.
 *
 * Two logs are read: "pager" (session lines 10 ms apart, read through the
 * client) and, on a second emulator whose agents never become ready, two
 * interleaved series with fractional-millisecond timestamps (read raw, also
 * under 300 random queries), plus a log of 100 000 lines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentHostingClient } from "../../src/client/client";
import { InputValidationError } from "../../src/client/errors";
import { logResultSchema } from "../../src/client/schemas";
import type { LogEntry, LogResult } from "../../src/client/answer-types";
import type { AgentLogsQuery } from "../../src/client/request-types";
import { NS_TIMESTAMP, startEmu, toNs, waitFor, type Emu } from "../support/emulator-fixture";

interface Entry {
  deploymentId: string;
  timestamp: string;
  log: string;
  ns: bigint;
}

type Filter = Omit<AgentLogsQuery, "agentName" | "limit" | "offset" | "order" | "startTime" | "endTime"> & {
  startTime?: number;
  endTime?: number;
};

const NS_PER_S = 1_000_000_000n;
const SESSION_LINES = 2500;
const OTHER_LINES = 700;

let emu: Emu;
let client: AgentHostingClient;
/** Every entry of "pager", oldest first, with its deployment (from the control dump). */
let all: Entry[];
let dep1: string;
let dep2: string;
/** Unix second of the first "Session Event" line (which lies exactly on it). */
let s0: number;

function bruteForce(entries: Entry[], q: Omit<AgentLogsQuery, "agentName">): LogResult {
  const needle = q.query?.toLowerCase();
  const after = q.startTime === undefined ? undefined : BigInt(q.startTime as number) * NS_PER_S;
  const before = q.endTime === undefined ? undefined : BigInt(q.endTime as number) * NS_PER_S;
  const matching = entries.filter(
    (e) =>
      (q.deploymentId === undefined || e.deploymentId === q.deploymentId) &&
      (needle === undefined || e.log.toLowerCase().includes(needle)) &&
      (after === undefined || e.ns > after) &&
      (before === undefined || e.ns < before),
  );
  const ordered = (q.order ?? "desc") === "asc" ? matching : [...matching].reverse();
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 10;
  return {
    total: matching.length > 10_000 ? { value: 10_000, relation: "gte" } : { value: matching.length, relation: "eq" },
    logs: ordered.slice(offset, offset + limit).map((e) => ({ log: e.log, timestamp: e.timestamp })),
  };
}

async function dump(name: string, from: Emu = emu): Promise<Entry[]> {
  const { entries } = await from.control.dumpLogs(name);
  return entries.map((e) => ({ ...e, ns: toNs(e.timestamp) }));
}

/** The query string of `q` as the service reads it ("" when `q` is empty). */
function queryString(q: Omit<AgentLogsQuery, "agentName">): string {
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

async function collect(iterator: AsyncIterable<LogEntry>): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for await (const entry of iterator) out.push(entry);
  return out;
}

beforeAll(async () => {
  emu = await startEmu({ readyAfterMs: 50 });
  client = emu.newClient();
  s0 = Math.floor(Date.now() / 1000) - 60;

  const created = await client.createAgent({ serviceName: "pager", image: "bot:1" });
  dep1 = created.activeDeploymentId;
  await waitFor("pager ready", async () => (await client.getAgent("pager")).ready);
  // 2500 lines 10 ms apart from s0: one on every whole second (i = 0, 100, 200, ...).
  await emu.control.appendLogs("pager", SESSION_LINES, { prefix: "Session Event", startMs: s0 * 1000, intervalMs: 10 });
  const moved = await client.updateAgent("pager", { image: "bot:2" });
  dep2 = moved["desiredDeploymentId"] as string; // the update's new deployment (the emulator rolls updates)
  // Lines of the second deployment interleaved with the first's.
  await emu.control.appendLogs("pager", OTHER_LINES, { prefix: "Other Noise", startMs: s0 * 1000 + 5_003, intervalMs: 17, deploymentId: dep2 });
  await waitFor("pager ready again", async () => (await client.getAgent("pager")).ready);
  all = await dump("pager");
});
afterAll(async () => emu?.close());

describe("the entries under test", () => {
  it("are the same through the public API (asc pages of 1000) as in the control dump", async () => {
    expect(all.length).toBeGreaterThan(SESSION_LINES + OTHER_LINES); // plus the deployments' own lines
    expect(all.filter((e) => e.log.startsWith("Session Event"))).toHaveLength(SESSION_LINES);
    expect(all.filter((e) => e.deploymentId === dep2 && e.log.startsWith("Other Noise"))).toHaveLength(OTHER_LINES);
    expect(all.some((e) => e.deploymentId === dep1 && e.log.includes("bot:1"))).toBe(true);
    expect(all.some((e) => e.deploymentId === dep2 && e.log.includes("bot:2"))).toBe(true);
    const viaApi = await collect(client.iterateAgentLogs({ agentName: "pager", order: "asc", pageSize: 1000 }));
    expect(viaApi).toEqual(all.map((e) => ({ log: e.log, timestamp: e.timestamp })));
    for (const e of viaApi) expect(e.timestamp).toMatch(NS_TIMESTAMP);
    for (let i = 1; i < all.length; i++) expect((all[i - 1] as Entry).ns <= (all[i] as Entry).ns).toBe(true);
    // The first session line sits exactly on s0, the 501st exactly on s0 + 5.
    expect(all.find((e) => e.log === "Session Event 0")?.ns).toBe(BigInt(s0) * NS_PER_S);
    expect(all.find((e) => e.log === "Session Event 500")?.ns).toBe(BigInt(s0 + 5) * NS_PER_S);
  });
});

describe("defaults", () => {
  it("answer the newest 10, newest first, with an exact total", async () => {
    const r = await emu.raw("GET", "/v1/agents/pager/logs");
    expect(r.status).toBe(200);
    const result = logResultSchema.parse(r.json);
    expect(result.total).toEqual({ value: all.length, relation: "eq" });
    expect(result.logs).toEqual(
      all
        .slice(-10)
        .reverse()
        .map((e) => ({ log: e.log, timestamp: e.timestamp })),
    );
  });
});

describe("filters and paging against brute force", () => {
  const filters = (): Filter[] => [
    {},
    { query: "session event 12" },
    { query: "SESSION EVENT 12" },
    { query: "sEsSiOn EvEnT 249" },
    { query: "other noise 1" },
    { query: "bot:2" },
    { query: "ready" },
    { query: "no line says this" },
    { query: "" },
    { deploymentId: dep1 },
    { deploymentId: dep2 },
    { deploymentId: "dep-000000000000" },
    { startTime: s0 },
    { startTime: s0 - 1 },
    { startTime: s0 + 5 },
    { endTime: s0 + 5 },
    { endTime: s0 },
    { startTime: s0 + 5, endTime: s0 + 12 },
    { startTime: s0 + 12, endTime: s0 + 5 },
    { startTime: s0 + 7, endTime: s0 + 8 },
    { startTime: s0 + 7, endTime: s0 + 7 },
    { startTime: s0 + 30 },
    { deploymentId: dep1, query: "event 1", startTime: s0 + 3, endTime: s0 + 20 },
    { deploymentId: dep2, query: "noise", startTime: s0 + 6 },
    { deploymentId: dep2, query: "session" },
  ];
  const pages: { order?: "asc" | "desc"; limit?: number; offset?: number }[] = [];
  for (const order of [undefined, "asc", "desc"] as const) {
    for (const [limit, offset] of [
      [undefined, undefined],
      [1, 0],
      [7, 3],
      [1000, 0],
      [1000, 2000],
      [50, 2480],
      [10, 5000],
      [undefined, 111],
    ] as const) {
      const page: { order?: "asc" | "desc"; limit?: number; offset?: number } = {};
      if (order !== undefined) page.order = order;
      if (limit !== undefined) page.limit = limit;
      if (offset !== undefined) page.offset = offset;
      pages.push(page);
    }
  }

  it("every filter × page combination matches through the client", async () => {
    let compared = 0;
    let nonEmpty = 0;
    for (const filter of filters()) {
      for (const page of pages) {
        const q = { ...filter, ...page };
        if (q.startTime !== undefined && q.endTime !== undefined && q.startTime > q.endTime) {
          // The client refuses a reversed window before sending; the emulator's answer to it is checked raw below.
          await expect(client.getAgentLogs({ agentName: "pager", ...q })).rejects.toThrow(InputValidationError);
          compared++;
          continue;
        }
        const got = await client.getAgentLogs({ agentName: "pager", ...q });
        expect(got, JSON.stringify(q)).toEqual(bruteForce(all, q));
        compared++;
        if (got.logs.length > 0) nonEmpty++;
      }
    }
    expect(compared).toBe(filters().length * pages.length);
    expect(nonEmpty).toBeGreaterThan(compared / 2); // the comparisons are not mostly of empty pages
  });

  it("the same through raw query strings (spaces as + and as %20)", async () => {
    const cases: [string, Omit<AgentLogsQuery, "agentName">][] = [
      ["query=session+event+12&order=asc&limit=20", { query: "session event 12", order: "asc", limit: 20 }],
      ["query=Session%20Event%2012&offset=100&limit=5", { query: "Session Event 12", offset: 100, limit: 5 }],
      [`deploymentId=${dep2}&startTime=${s0 + 5}&endTime=${s0 + 9}&order=desc&limit=1000`, { deploymentId: dep2, startTime: s0 + 5, endTime: s0 + 9, limit: 1000 }],
      [`startTime=${s0 + 5}&order=asc&limit=3`, { startTime: s0 + 5, order: "asc", limit: 3 }],
      [`endTime=${s0 + 5}&order=desc&limit=3`, { endTime: s0 + 5, limit: 3 }],
      [`startTime=${s0 + 12}&endTime=${s0 + 5}`, { startTime: s0 + 12, endTime: s0 + 5 }],
      ["limit=1000&offset=0&order=asc", { limit: 1000, order: "asc" }],
    ];
    for (const [qs, q] of cases) {
      const r = await emu.raw("GET", `/v1/agents/pager/logs?${qs}`);
      expect(r.status, qs).toBe(200);
      expect(logResultSchema.parse(r.json), qs).toEqual(bruteForce(all, q));
    }
  });

  it("startTime and endTime are exclusive at a whole second", async () => {
    const afterS5 = await client.getAgentLogs({ agentName: "pager", deploymentId: dep1, query: "session event", startTime: s0 + 5, order: "asc", limit: 2 });
    expect(afterS5.logs.map((e) => e.log)).toEqual(["Session Event 501", "Session Event 502"]);
    const beforeS5 = await client.getAgentLogs({ agentName: "pager", query: "session event", endTime: s0 + 5, limit: 2 });
    expect(beforeS5.logs.map((e) => e.log)).toEqual(["Session Event 499", "Session Event 498"]);
    expect(beforeS5.total).toEqual({ value: 500, relation: "eq" });
    const oneSecond = await client.getAgentLogs({ agentName: "pager", query: "session event", startTime: s0 + 7, endTime: s0 + 8, limit: 1000 });
    expect(oneSecond.total).toEqual({ value: 99, relation: "eq" }); // 701..799: 700 and 800 sit on the bounds
    const emptyWindow = await client.getAgentLogs({ agentName: "pager", startTime: s0 + 7, endTime: s0 + 7 });
    expect(emptyWindow).toEqual({ total: { value: 0, relation: "eq" }, logs: [] });
  });

  it("Date bounds given to the client are sent as Unix seconds", async () => {
    const q = { startTime: new Date((s0 + 5) * 1000 + 999), endTime: new Date((s0 + 6) * 1000), order: "asc" as const, limit: 1000 };
    const got = await client.getAgentLogs({ agentName: "pager", ...q });
    expect(got).toEqual(bruteForce(all, { ...q, startTime: s0 + 5, endTime: s0 + 6 }));
    expect(got.total.value).toBeGreaterThan(0);
  });

  it("iterateAgentLogs with a filter yields every match, in order, across pages", async () => {
    for (const q of [
      { query: "session event 1", order: "desc" as const, pageSize: 100 },
      { deploymentId: dep2, order: "asc" as const, pageSize: 33 },
      { startTime: s0 + 10, endTime: s0 + 20, pageSize: 1000 },
    ]) {
      const { pageSize: _pageSize, ...filter } = q;
      const expected = bruteForce(all, { ...filter, offset: 0, limit: all.length }).logs;
      expect(expected.length).toBeGreaterThan(100);
      expect(await collect(client.iterateAgentLogs({ agentName: "pager", ...q }))).toEqual(expected);
    }
  });
});

describe("the total's cap", () => {
  let big: Entry[];
  let b0: number;

  beforeAll(async () => {
    b0 = Math.floor(Date.now() / 1000) - 20_000;
    await client.createAgent({ serviceName: "big-logs", image: "bot:1" });
    // 10 001 lines, one per second, the first exactly on b0.
    await emu.control.appendLogs("big-logs", 10_001, { prefix: "Cap Line", startMs: b0 * 1000, intervalMs: 1000 });
    await waitFor("big-logs ready", async () => (await client.getAgent("big-logs")).ready);
    big = await dump("big-logs");
  });

  it('is { value: 10000, relation: "gte" } above 10 000 matches and exact ("eq") up to it', async () => {
    expect(big.length).toBeGreaterThan(10_001);
    const unfiltered = await client.getAgentLogs({ agentName: "big-logs" });
    expect(unfiltered.total).toEqual({ value: 10_000, relation: "gte" });
    expect(unfiltered.logs).toHaveLength(10);
    expect((await client.getAgentLogs({ agentName: "big-logs", query: "cap line" })).total).toEqual({ value: 10_000, relation: "gte" });
    // Exactly 10 000 (b0 .. b0+9999) and exactly 10 001 (b0 .. b0+10000) matches.
    expect((await client.getAgentLogs({ agentName: "big-logs", endTime: b0 + 10_000 })).total).toEqual({ value: 10_000, relation: "eq" });
    expect((await client.getAgentLogs({ agentName: "big-logs", query: "cap line", endTime: b0 + 10_000 })).total).toEqual({ value: 10_000, relation: "eq" });
    expect((await client.getAgentLogs({ agentName: "big-logs", endTime: b0 + 10_001 })).total).toEqual({ value: 10_000, relation: "gte" });
    expect((await client.getAgentLogs({ agentName: "big-logs", startTime: b0, endTime: b0 + 10_001 })).total).toEqual({ value: 10_000, relation: "eq" });
    // "cap line 1": 1, 10-19, 100-199, 1000-1999, 10000.
    expect((await client.getAgentLogs({ agentName: "big-logs", query: "cap line 1" })).total).toEqual({ value: 1112, relation: "eq" });
  });

  it("pages past the cap against brute force", async () => {
    for (const q of [
      { order: "asc" as const, offset: 9_998, limit: 5 },
      { order: "asc" as const, offset: 10_000, limit: 1000 },
      { order: "desc" as const, offset: 10_000, limit: 1000 },
      { query: "cap line", offset: 9_999, limit: 3 },
      { endTime: b0 + 10_000, order: "asc" as const, offset: 9_990, limit: 100 },
    ]) {
      const got = await client.getAgentLogs({ agentName: "big-logs", ...q });
      expect(got, JSON.stringify(q)).toEqual(bruteForce(big, q));
      expect(got.logs.length).toBeGreaterThan(0);
    }
  });

  it("iterateAgentLogs reads every entry although the total is capped, on one connection that the next call reuses", async () => {
    const fresh = emu.newClient();
    const before = await emu.control.stats();
    const read = await collect(fresh.iterateAgentLogs({ agentName: "big-logs", order: "asc" }));
    expect(read).toHaveLength(big.length);
    expect(read).toEqual(big.map((e) => ({ log: e.log, timestamp: e.timestamp })));
    await fresh.getAgent("big-logs");
    const after = await emu.control.stats();
    // 11 pages, the page past the end that was requested ahead, and the GET.
    expect(after.byRoute["GET /v1/agents/big-logs/logs"]! - (before.byRoute["GET /v1/agents/big-logs/logs"] ?? 0)).toBe(12);
    expect(after.apiConnections - before.apiConnections).toBe(1);
  });
});

describe("bad parameters", () => {
  it.each([
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["limit=-1", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=", "limit"],
    ["offset=-1", "offset"],
    ["offset=abc", "offset"],
    ["offset=1e3", "offset"],
    ["order=newest", "order"],
    ["order=ASC", "order"],
    ["startTime=-5", "startTime"],
    ["startTime=yesterday", "startTime"],
    ["endTime=1.5", "endTime"],
    ["endTime=-5", "endTime"],
  ])("%s is a 400 naming %s", async (qs, property) => {
    const r = await emu.raw("GET", `/v1/agents/pager/logs?${qs}`);
    expect(r.status).toBe(400);
    expect(r.json.code).toBe("GENERIC_BAD_REQUEST");
    expect(r.json.error).toContain(property);
  });

  it("names every bad parameter at once", async () => {
    const r = await emu.raw("GET", "/v1/agents/pager/logs?limit=0&offset=-1&order=sideways&startTime=x&endTime=y");
    expect(r.status).toBe(400);
    for (const property of ["limit", "offset", "order", "startTime", "endTime"]) expect(r.json.error).toContain(property);
  });

  it("limit 1 and 1000 are the bounds that pass", async () => {
    expect((await client.getAgentLogs({ agentName: "pager", limit: 1 })).logs).toHaveLength(1);
    expect((await client.getAgentLogs({ agentName: "pager", limit: 1000 })).logs).toHaveLength(1000);
  });

  it("an unknown agent is a 404 even with bad parameters", async () => {
    const r = await emu.raw("GET", "/v1/agents/nobody-here/logs?limit=0");
    expect(r.status).toBe(404);
    expect(r.json.code).toBe("NOT_FOUND");
  });
});

describe("two interleaved series on an emulator whose agents never become ready", () => {
  let other: Emu;
  let series: Entry[];
  let first: string;
  let second: string;
  /** Whole seconds: the first appended line sits exactly on it. */
  let baseS: number;
  const read = async (q: Omit<AgentLogsQuery, "agentName">, name = "log-bot") => other.raw("GET", `/v1/agents/${name}/logs${queryString(q)}`);

  beforeAll(async () => {
    // Never ready: no "ready" line appears between the dump and the reads.
    other = await startEmu({ readyAfterMs: 3_600_000 });
    first = (await other.raw("POST", "/v1/agents", { json: { serviceName: "log-bot", image: "bot:1" } })).json.activeDeploymentId;
    second = (await other.raw("POST", "/v1/agents/log-bot", { json: { image: "bot:2" } })).json.activeDeploymentId;
    baseS = Math.floor(Date.now() / 1000) - 3600;
    // Two interleaved series reaching back before the deployments' own lines (the store merges them in time order).
    await other.control.appendLogs("log-bot", 1200, { deploymentId: first, prefix: "Alpha Event", startMs: baseS * 1000, intervalMs: 997 });
    await other.control.appendLogs("log-bot", 1300, { deploymentId: second, prefix: "beta EVENT", startMs: baseS * 1000 + 500.5, intervalMs: 1013 });
    // And some at "now", after everything else.
    await other.control.appendLogs("log-bot", 40, { prefix: "Gamma tail" });
    series = await dump("log-bot", other);
  });
  afterAll(async () => other?.close());

  it("are kept in time order with all nine digits of their nanosecond timestamps", () => {
    expect(series).toHaveLength(8 + 1200 + 1300 + 40);
    for (const e of series) expect(e.timestamp).toMatch(NS_TIMESTAMP);
    for (let i = 1; i < series.length; i++) expect((series[i] as Entry).ns >= (series[i - 1] as Entry).ns).toBe(true);
    // Not rounded to milliseconds.
    expect(series.some((e) => !/000000Z$/.test(e.timestamp))).toBe(true);
  });

  it("read unfiltered in raw pages of 1000, asc and desc, are exactly the entries", async () => {
    for (const order of ["asc", "desc"] as const) {
      const pages: LogEntry[] = [];
      for (let offset = 0; ; offset += 1000) {
        const r = await read({ order, limit: 1000, offset });
        expect(r.status).toBe(200);
        expect(r.json.total).toEqual({ value: series.length, relation: "eq" });
        pages.push(...r.json.logs);
        if (r.json.logs.length < 1000) break;
      }
      const expected = series.map((e) => ({ log: e.log, timestamp: e.timestamp }));
      expect(pages).toEqual(order === "asc" ? expected : expected.reverse());
    }
  });

  it("hand-picked combinations match brute force", async () => {
    const cases: Omit<AgentLogsQuery, "agentName">[] = [
      {},
      { order: "asc" },
      { limit: 1 },
      { limit: 1000, offset: 2000 },
      { offset: series.length },
      { offset: series.length + 5 },
      { deploymentId: first, limit: 1000 },
      { deploymentId: second, order: "asc", limit: 1000, offset: 400 },
      { deploymentId: "dep-nope" },
      { query: "event 1", limit: 1000 },
      { query: "EVENT 11", order: "asc", limit: 50 },
      { query: "alpha", deploymentId: second },
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
      { startTime: baseS + 300, endTime: baseS + 900, query: "beta", deploymentId: second, order: "asc", limit: 17, offset: 33 },
    ];
    for (const q of cases) {
      const r = await read(q);
      expect(r.status, JSON.stringify(q)).toBe(200);
      expect(r.json, JSON.stringify(q)).toEqual(bruteForce(series, q));
    }
  });

  it("300 random combinations match brute force", async () => {
    const random = prng(20261123);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    const span = 1400;
    for (let i = 0; i < 300; i++) {
      const q: Omit<AgentLogsQuery, "agentName"> = {};
      const deploymentId = pick([undefined, undefined, first, second, "dep-none"]);
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
      const r = await read(q);
      expect(r.status, JSON.stringify(q)).toBe(200);
      expect(r.json, JSON.stringify(q)).toEqual(bruteForce(series, q));
    }
  });

  it("100 000 entries read in pages of 1000, newest first, without gaps or repeats", async () => {
    await other.raw("POST", "/v1/agents", { json: { serviceName: "big-log-bot", image: "bot:1" } });
    await other.control.appendLogs("big-log-bot", 100_000 - 4, { prefix: "session event" });
    let previous: bigint | undefined;
    let count = 0;
    let outOfOrder = 0;
    for (let offset = 0; offset < 100_000; offset += 1000) {
      const r = await read({ limit: 1000, offset }, "big-log-bot");
      expect(r.json.logs).toHaveLength(1000);
      for (const entry of r.json.logs as LogEntry[]) {
        const ns = toNs(entry.timestamp);
        if (previous !== undefined && !(ns < previous)) outOfOrder++;
        previous = ns;
        count++;
      }
    }
    expect(count).toBe(100_000);
    expect(outOfOrder).toBe(0);
  });
});
