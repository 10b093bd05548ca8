/**
 * AgentHostingClient: one retry budget per call. A create that is re-posted
 * after a read-back spends the same `maxRetries` as its 429 / refused
 * retries, so a call never makes more than maxRetries + 1 POSTs. Also:
 * Retry-After given as an HTTP date.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConnectionError, InputValidationError, NotFoundError, ServerError } from "../../src/client/errors";
import { spendRetry, withRetries, type RetryNote, type RetryPolicy } from "../../src/client/retry";
import type { CreateAgentBody } from "../../src/client/request-types";
import { JSON_REPLY, errorJson, makeHarness, rejectionOf, refused, type Harness } from "./support/client-harness";
import { agentJson, IMAGE } from "../support/fixtures";

const body: CreateAgentBody = { serviceName: "voice-bot", image: IMAGE };
const NOT_FOUND = [404, errorJson("NOT_FOUND", "agent not found"), JSON_REPLY] as const;

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  vi.useRealTimers();
  await h.finish();
});

const post = () => h.api.intercept({ path: "/v1/agents", method: "POST" });
const readBack = () => h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" });
const callLines = () => h.calls().map((c) => `${c.method} ${c.path}`);

describe("createAgent shares one retry budget between its POSTs", () => {
  it("maxRetries 2: a 429 retry and a re-post after a 404 read-back spend it; the third POST's 500 is final", async () => {
    await h.finish();
    h = makeHarness({ maxRetries: 2 });
    post().reply(429, errorJson("RATE_LIMITED", "slow"), JSON_REPLY);
    post().reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY);
    readBack().reply(...NOT_FOUND);
    post().reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY);
    readBack().reply(...NOT_FOUND);

    const error = await rejectionOf(h.client.createAgent(body));

    expect(error).toBeInstanceOf(ServerError);
    expect(callLines()).toEqual([
      "POST /v1/agents",
      "POST /v1/agents",
      "GET /v1/agents/voice-bot",
      "POST /v1/agents",
      "GET /v1/agents/voice-bot",
    ]);
    expect(h.sleeps).toEqual([500, 1000]);
    expect(h.notes).toEqual<RetryNote[]>([
      { method: "POST", path: "/v1/agents", attempt: 1, delayMs: 500, reason: "429 RATE_LIMITED" },
      {
        method: "POST",
        path: "/v1/agents",
        attempt: 2,
        delayMs: 1000,
        reason: "500 INTERNAL_SERVER_ERROR, agent not found on read-back",
      },
    ]);
  });

  it("default 3: a re-post, a 429 and a refused connection use it up; the fourth POST's failure is final", async () => {
    post().reply(500, "");
    readBack().reply(...NOT_FOUND);
    post().reply(429, errorJson("RATE_LIMITED", "slow"), JSON_REPLY);
    post().replyWithError(refused()).times(2);

    const error = (await rejectionOf(h.client.createAgent(body))) as ConnectionError;

    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.notSent).toBe(true);
    expect(callLines().filter((l) => l.startsWith("POST"))).toHaveLength(4);
    expect(h.notes.map((n) => [n.attempt, n.reason])).toEqual([
      [1, "500, agent not found on read-back"],
      [2, "429 RATE_LIMITED"],
      [3, "ECONNREFUSED"],
    ]);
    expect(h.sleeps).toEqual([500, 1000, 2000]);
  });

  it("the read-back GET has its own budget: its retries do not shorten the create's", async () => {
    await h.finish();
    h = makeHarness({ maxRetries: 1 });
    post().reply(500, "");
    readBack().reply(503, "");
    readBack().reply(...NOT_FOUND);
    post().reply(200, agentJson(), JSON_REPLY);

    const agent = await h.client.createAgent(body);

    expect(agent.name).toBe("voice-bot");
    expect(callLines()).toEqual([
      "POST /v1/agents",
      "GET /v1/agents/voice-bot",
      "GET /v1/agents/voice-bot",
      "POST /v1/agents",
    ]);
    expect(h.notes.map((n) => `${n.method} ${n.attempt} ${n.reason}`)).toEqual([
      "GET 1 503",
      "POST 1 500, agent not found on read-back",
    ]);
  });
});

describe("Retry-After as an HTTP date", () => {
  it("waits until that date (30 s from the faked clock)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2024-05-01T10:00:00Z"));
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "GET" })
      .reply(429, errorJson("RATE_LIMITED", "slow"), {
        headers: { "content-type": "application/json", "retry-after": "Wed, 01 May 2024 10:00:30 GMT" },
      });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson(), JSON_REPLY);

    await h.client.getAgent("voice-bot");

    expect(h.sleeps).toEqual([30_000]);
    expect(h.notes[0]).toMatchObject({ attempt: 1, delayMs: 30_000, reason: "429 RATE_LIMITED" });
  });

  it("a date in the past retries at once", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2024-05-01T10:00:00Z"));
    h.api
      .intercept({ path: "/v1/secrets/team-secrets", method: "GET" })
      .reply(429, errorJson("RATE_LIMITED", "slow"), { headers: { "retry-after": "Wed, 01 May 2024 09:00:00 GMT" } });
    h.api.intercept({ path: "/v1/secrets/team-secrets", method: "GET" }).reply(200, { secrets: [] }, JSON_REPLY);

    await h.client.getSecretSet("team-secrets");

    expect(h.sleeps).toEqual([0]);
  });
});

describe("retry.ts building blocks", () => {
  const policy = (sleeps: number[], maxRetries = 2): RetryPolicy => ({
    maxRetries,
    baseDelayMs: 100,
    maxDelayMs: 1000,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  const busy = () =>
    new ServerError({ status: 503, code: undefined, message: "busy", method: "GET", path: "/v1/agents/x" });

  it("spendRetry throws the error itself once the budget is spent", async () => {
    const sleeps: number[] = [];
    const budget = { used: 0 };
    const notes: RetryNote[] = [];
    const args = { method: "GET", path: "/v1/agents/x", policy: policy(sleeps), onRetry: (n: RetryNote) => notes.push(n) };
    const error = busy();
    await spendRetry(budget, error, args);
    await spendRetry(budget, error, { ...args, why: "again" });
    await expect(spendRetry(budget, error, args)).rejects.toBe(error);
    expect(budget.used).toBe(2);
    expect(sleeps).toEqual([100, 200]);
    expect(notes.map((n) => n.reason)).toEqual(["503", "503, again"]);
  });

  it("withRetries continues a budget that was partly spent", async () => {
    const sleeps: number[] = [];
    let attempts = 0;
    const error = await rejectionOf(
      withRetries(
        () => {
          attempts++;
          return Promise.reject(busy());
        },
        { method: "GET", path: "/v1/agents/x", policy: policy(sleeps, 3), budget: { used: 2 } },
      ),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(attempts).toBe(2);
    expect(sleeps).toEqual([400]);
  });

  it("withRetries does not retry what the policy refuses (a 404)", async () => {
    const sleeps: number[] = [];
    const notFound = new NotFoundError({ status: 404, code: "NOT_FOUND", message: "no", method: "GET", path: "/v1/a" });
    await expect(withRetries(() => Promise.reject(notFound), { method: "GET", path: "/v1/a", policy: policy(sleeps) })).rejects.toBe(notFound);
    expect(sleeps).toEqual([]);
  });

  it("an aborted call starts no retry and rejects with the signal's reason, also from the sleep between retries", async () => {
    const sleeps: number[] = [];
    const stopped = new AbortController();
    let attempts = 0;
    const never = policy(sleeps);
    never.sleep = (ms) => {
      sleeps.push(ms);
      stopped.abort(new Error("cancelled"));
      return new Promise(() => undefined);
    };
    const error = await rejectionOf(
      withRetries(
        () => {
          attempts++;
          return Promise.reject(busy());
        },
        { method: "GET", path: "/v1/agents/x", policy: never, signal: stopped.signal },
      ),
    );
    expect(error).toEqual(new Error("cancelled"));
    expect(attempts).toBe(1);
    expect(sleeps).toEqual([100]);
  });
});

describe("iterateAgentLogs input", () => {
  it("names every bad parameter at once (agent name, pageSize, limit, order, time), before any request", () => {
    let error: unknown;
    try {
      h.client.iterateAgentLogs({
        agentName: "../x",
        pageSize: 5000,
        limit: 0,
        order: "newest" as "asc",
        startTime: new Date("not a date"),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).failures.map((f) => f.property)).toEqual([
      "agentName",
      "order",
      "startTime",
      "pageSize",
      "limit",
    ]);
    expect(h.calls()).toEqual([]);
  });
});
