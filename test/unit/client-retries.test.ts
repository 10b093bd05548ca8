/**
 * AgentHostingClient: its retry policy. Delays are read
 * from the injected sleep (which resolves at once); random() = 0.5 makes the
 * jitter factor exactly 1, so the delays are 500, 1000, 2000 ms.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MockAgent } from "undici";
import { AgentHostingClient, type RetryNote } from "../../src/client/client";
import { ApiError, AuthenticationError, BadRequestError, ConflictError, ConnectionError, NotFoundError, RateLimitError, ResponseValidationError, ServerError, TimeoutError } from "../../src/client/errors";
import type { CreateAgentBody } from "../../src/client/request-types";
import { BASE_URL, JSON_REPLY, ORIGIN, collect, errorJson, makeHarness, rejectionOf, headersTimeout, refused, reset, type Harness } from "./support/client-harness";
import { API_KEY, agentJson, IMAGE } from "../support/fixtures";
import { documented } from "../support/documented-agent";

const RETRY_AFTER_2 = { headers: { "content-type": "application/json", "retry-after": "2" } };
const EMPTY_LOGS = { total: { value: 0, relation: "eq" }, logs: [] };

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  await h.finish();
});

const callLines = () => h.calls().map((c) => `${c.method} ${c.path}`);

// ---------------------------------------------------------------------------
// GET and DELETE: retried on connection errors, timeouts, 429 and 5xx.

interface IdempotentCase {
  label: string;
  method: "GET" | "DELETE";
  path: string;
  ok: object;
  invoke: (c: AgentHostingClient) => Promise<unknown>;
}

const IDEMPOTENT: IdempotentCase[] = [
  { label: "getAgent", method: "GET", path: "/v1/agents/voice-bot", ok: agentJson(), invoke: (c) => c.getAgent("voice-bot") },
  {
    label: "getAgentLogs",
    method: "GET",
    path: "/v1/agents/voice-bot/logs",
    ok: EMPTY_LOGS,
    invoke: (c) => c.getAgentLogs({ agentName: "voice-bot", limit: 5 }),
  },
  {
    label: "iterateAgentLogs",
    method: "GET",
    path: "/v1/agents/voice-bot/logs",
    ok: EMPTY_LOGS,
    invoke: (c) => collect(c.iterateAgentLogs({ agentName: "voice-bot" })),
  },
  {
    label: "getSecretSet",
    method: "GET",
    path: "/v1/secrets/team-secrets",
    ok: { secrets: [] },
    invoke: (c) => c.getSecretSet("team-secrets"),
  },
  { label: "deleteAgent", method: "DELETE", path: "/v1/agents/voice-bot", ok: { status: "OK" }, invoke: (c) => c.deleteAgent("voice-bot") },
];

interface FailureCase {
  label: string;
  reason: string;
  cls: new (...args: never[]) => Error;
  register: (h: Harness, path: string, method: string, times: number) => void;
}

const samePath = (path: string) => (p: string) => p.split("?")[0] === path;

/** Registers `times` answers of `status` with an error body on `method path`. */
const answering =
  (status: number, code: string, message: string): FailureCase["register"] =>
  (x, path, method, times) =>
    x.api.intercept({ path: samePath(path), method }).reply(status, errorJson(code, message), JSON_REPLY).times(times);

/** Registers `times` transport failures made by `make` on `method path`. */
const failingWith =
  (make: () => Error): FailureCase["register"] =>
  (x, path, method, times) =>
    x.api.intercept({ path: samePath(path), method }).replyWithError(make()).times(times);

const FAILURES: FailureCase[] = [
  { label: "503", reason: "503 UNAVAILABLE", cls: ServerError, register: answering(503, "UNAVAILABLE", "busy") },
  { label: "500", reason: "500 INTERNAL_SERVER_ERROR", cls: ServerError, register: answering(500, "INTERNAL_SERVER_ERROR", "boom") },
  { label: "ECONNRESET", reason: "ECONNRESET", cls: ConnectionError, register: failingWith(reset) },
  { label: "429 without Retry-After", reason: "429 RATE_LIMITED", cls: RateLimitError, register: answering(429, "RATE_LIMITED", "slow") },
  { label: "a headers timeout", reason: "timeout", cls: TimeoutError, register: failingWith(headersTimeout) },
];

describe.each(IDEMPOTENT)("$label ($method) retries", (m) => {
  it.each(FAILURES)("$label: 3 retries after 500, 1000, 2000 ms, then the error", async (f) => {
    f.register(h, m.path, m.method, 4);

    const error = await rejectionOf(m.invoke(h.client));

    expect(error).toBeInstanceOf(f.cls);
    expect(callLines()).toEqual(Array(4).fill(`${m.method} ${m.path}`));
    expect(h.sleeps).toEqual([500, 1000, 2000]);
    expect(h.notes).toEqual(
      [500, 1000, 2000].map((delayMs, i) => ({ method: m.method, path: m.path, attempt: i + 1, delayMs, reason: f.reason })),
    );
  });

  it("succeeds on the third attempt after two failures", async () => {
    FAILURES[0]?.register(h, m.path, m.method, 1);
    FAILURES[2]?.register(h, m.path, m.method, 1);
    h.api.intercept({ path: samePath(m.path), method: m.method }).reply(200, m.ok, JSON_REPLY);

    await m.invoke(h.client);

    expect(h.calls()).toHaveLength(3);
    expect(h.sleeps).toEqual([500, 1000]);
  });

  it("honours Retry-After: 2 (2000 ms) on a 429", async () => {
    h.api.intercept({ path: samePath(m.path), method: m.method }).reply(429, errorJson("RATE_LIMITED", "slow"), RETRY_AFTER_2);
    h.api.intercept({ path: samePath(m.path), method: m.method }).reply(200, m.ok, JSON_REPLY);

    await m.invoke(h.client);

    expect(h.calls()).toHaveLength(2);
    expect(h.sleeps).toEqual([2000]);
    expect(h.notes).toEqual([{ method: m.method, path: m.path, attempt: 1, delayMs: 2000, reason: "429 RATE_LIMITED" }]);
  });

  it.each([
    [400, "GENERIC_BAD_REQUEST", BadRequestError],
    [401, "UNAUTHORIZED", AuthenticationError],
    [404, "NOT_FOUND", NotFoundError],
    [409, "CONFLICT", ConflictError],
    [418, "TEAPOT", ApiError],
  ] as const)("does not retry a %i", async (status, code, cls) => {
    h.api.intercept({ path: samePath(m.path), method: m.method }).reply(status, errorJson(code, "no"), JSON_REPLY);
    const error = await rejectionOf(m.invoke(h.client));
    expect(error).toBeInstanceOf(cls);
    expect(h.calls()).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
    expect(h.notes).toEqual([]);
  });
});

describe("GET retry details", () => {
  it("a retried logs request repeats the same query string", async () => {
    h.api.intercept({ path: samePath("/v1/agents/voice-bot/logs"), method: "GET" }).reply(503, "").times(2);
    h.api.intercept({ path: samePath("/v1/agents/voice-bot/logs"), method: "GET" }).reply(200, EMPTY_LOGS, JSON_REPLY);
    await h.client.getAgentLogs({ agentName: "voice-bot", limit: 7, offset: 3, query: "err" });
    const urls = h.calls().map((c) => c.fullUrl);
    expect(urls).toHaveLength(3);
    expect(new Set(urls)).toEqual(new Set(["https://api.test/v1/agents/voice-bot/logs?limit=7&offset=3&query=err"]));
  });

  it("a ResponseValidationError is not retried", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, { name: "voice-bot" }, JSON_REPLY);
    expect(await rejectionOf(h.client.getAgent("voice-bot"))).toBeInstanceOf(ResponseValidationError);
    expect(h.calls()).toHaveLength(1);
  });

  it.each([
    ["Retry-After is capped at 60 s", "3600", 60_000],
    ["Retry-After: 0 retries at once", "0", 0],
  ])("%s", async (_label, retryAfter, slept) => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "GET" })
      .reply(429, errorJson("RATE_LIMITED", "slow"), { headers: { "retry-after": retryAfter } });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson(), JSON_REPLY);
    await h.client.getAgent("voice-bot");
    expect(h.sleeps).toEqual([slept]);
  });

  it("maxRetries: 1 makes two attempts; maxRetries: 0 makes one", async () => {
    await h.finish();
    h = makeHarness({ maxRetries: 1 });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(503, "").times(2);
    expect(await rejectionOf(h.client.getAgent("voice-bot"))).toBeInstanceOf(ServerError);
    expect(h.calls()).toHaveLength(2);
    expect(h.sleeps).toEqual([500]);
    await h.finish();

    h = makeHarness({ maxRetries: 0 });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(503, "");
    expect(await rejectionOf(h.client.getAgent("voice-bot"))).toBeInstanceOf(ServerError);
    expect(h.calls()).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });

  it("the backoff doubles up to retryMaxDelayMs (default base 500, cap 8000)", async () => {
    await h.finish();
    h = makeHarness({ maxRetries: 6 });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(503, "").times(7);
    await rejectionOf(h.client.getAgent("voice-bot"));
    expect(h.sleeps).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it("retryBaseDelayMs and retryMaxDelayMs are honoured", async () => {
    await h.finish();
    h = makeHarness({ retryBaseDelayMs: 100, retryMaxDelayMs: 300 });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(503, "").times(4);
    await rejectionOf(h.client.getAgent("voice-bot"));
    expect(h.sleeps).toEqual([100, 200, 300]);
  });

  it.each([
    [0, [375, 750, 1500]],
    [0.9999, [625, 1250, 2500]],
  ])("jitter stays within ±25 %% (random() = %d)", async (r, expected) => {
    await h.finish();
    h = makeHarness({}, { random: () => r });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(503, "").times(4);
    await rejectionOf(h.client.getAgent("voice-bot"));
    expect(h.sleeps).toEqual(expected);
  });

  it("without an injected sleep, the retry waits the real delay (fake timers)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const mockAgent = new MockAgent({ enableCallHistory: true });
    mockAgent.disableNetConnect();
    try {
      const api = mockAgent.get(ORIGIN);
      api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(503, "");
      api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson(), JSON_REPLY);
      let noted: () => void = () => undefined;
      const retryNoted = new Promise<void>((resolve) => {
        noted = resolve;
      });
      const client = new AgentHostingClient({ baseUrl: BASE_URL, apiKey: API_KEY, dispatcher: mockAgent, onRetry: () => noted() }, { random: () => 0.5 });
      let settled = false;
      const pending = client.getAgent("voice-bot").then((agent) => {
        settled = true;
        return agent;
      });
      // The note is given just before the sleep starts: from here the 500 ms are counted.
      await retryNoted;
      await vi.advanceTimersByTimeAsync(499);
      expect(mockAgent.getCallHistory()?.calls()).toHaveLength(1);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const agent = await pending;
      expect(agent.name).toBe("voice-bot");
      expect(mockAgent.getCallHistory()?.calls()).toHaveLength(2);
      mockAgent.assertNoPendingInterceptors();
    } finally {
      vi.useRealTimers();
      await mockAgent.close();
    }
  }, 5_000);
});

// ---------------------------------------------------------------------------
// createAgent: never retried blindly after an ambiguous failure.

describe("createAgent after a failure", () => {
  const body: CreateAgentBody = {
    serviceName: "voice-bot",
    image: IMAGE,
    secretSet: "team-secrets",
    autoScaling: { minAgents: 1, maxAgents: 3 },
    enableNoise: true,
  };
  const matching = () => agentJson({ envFromSecretNames: ["team-secrets"], noise: true, minReplicas: 1, maxReplicas: 3 });
  const post = () => h.api.intercept({ path: "/v1/agents", method: "POST", body: JSON.stringify(body) });
  const readBack = () => h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" });
  const notFound = [404, errorJson("NOT_FOUND", "agent not found"), JSON_REPLY] as const;

  it("500, then the read-back finds the same agent: returned, with exactly one POST", async () => {
    post().reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY);
    readBack().reply(200, matching(), JSON_REPLY);

    const agent = await h.client.createAgent(body);

    expect(agent.name).toBe("voice-bot");
    expect(documented(agent).deployment.manifest.spec.envFromSecretNames).toEqual(["team-secrets"]);
    expect(callLines()).toEqual(["POST /v1/agents", "GET /v1/agents/voice-bot"]);
    expect(h.sleeps).toEqual([]);
  });

  it("500, then the read-back is 404: POSTed again (once) and the second answer returned", async () => {
    post().reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY);
    readBack().reply(...notFound);
    post().reply(200, matching(), JSON_REPLY);

    const agent = await h.client.createAgent(body);

    expect(agent.name).toBe("voice-bot");
    expect(callLines()).toEqual(["POST /v1/agents", "GET /v1/agents/voice-bot", "POST /v1/agents"]);
    expect(h.calls()[2]?.body).toBe(JSON.stringify(body));
    expect(h.notes).toHaveLength(1);
    expect(h.notes[0]).toMatchObject({ method: "POST", path: "/v1/agents", attempt: 1, delayMs: 500 });
    expect(h.notes[0]?.reason).toMatch(/^500 INTERNAL_SERVER_ERROR, agent not found on read-back$/);
    expect(h.sleeps).toEqual([500]); // backs off before posting again
  });

  it.each([
    ["another image", { image: "registry.example.com/voice-bot:9.9.9" }],
    ["other scaling limits", { minReplicas: 2 }],
    ["no secret set", { envFromSecretNames: [] }],
    ["noise off", { noise: false }],
  ])("500, then the read-back finds a different agent (%s): ConflictError, one POST", async (_label, diff) => {
    post().reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY);
    readBack().reply(
      200,
      agentJson({ envFromSecretNames: ["team-secrets"], noise: true, minReplicas: 1, maxReplicas: 3, ...diff }),
      JSON_REPLY,
    );

    const error = (await rejectionOf(h.client.createAgent(body))) as ConflictError;

    expect(error).toBeInstanceOf(ConflictError);
    expect(error.status).toBe(409);
    expect(error.code).toBe("CONFLICT");
    expect(error.method).toBe("POST");
    expect(error.path).toBe("/v1/agents");
    expect(error.message).toMatch(/voice-bot/);
    expect(callLines()).toEqual(["POST /v1/agents", "GET /v1/agents/voice-bot"]);
  });

  it("the caller's matches decides what a read-back agent is: its answer wins over the service's report of the body", async () => {
    post().reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY);
    readBack().reply(200, matching(), JSON_REPLY);
    const seen: string[] = [];
    const refused = await rejectionOf(h.client.createAgent(body, { matches: (existing) => (seen.push(existing.name), false) }));
    expect(refused).toBeInstanceOf(ConflictError);
    expect(seen).toEqual(["voice-bot"]);

    post().reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY);
    readBack().reply(200, agentJson({ image: "registry.example.com/other:1" }), JSON_REPLY);
    const taken = await h.client.createAgent(body, { matches: () => true });
    expect(taken.name).toBe("voice-bot");
  });

  it("500, then a read-back with deployment: null does not count as the same agent", async () => {
    post().reply(500, "");
    readBack().reply(200, { ...agentJson(), deployment: null }, JSON_REPLY);
    expect(await rejectionOf(h.client.createAgent(body))).toBeInstanceOf(ConflictError);
    expect(h.calls()).toHaveLength(2);
  });

  it("ECONNRESET on the POST: read back too, never a blind second POST", async () => {
    post().replyWithError(reset());
    readBack().reply(200, matching(), JSON_REPLY);

    const agent = await h.client.createAgent(body);

    expect(agent.name).toBe("voice-bot");
    expect(callLines()).toEqual(["POST /v1/agents", "GET /v1/agents/voice-bot"]);
    expect(h.sleeps).toEqual([]);
  });

  it("a timeout on the POST: read back too", async () => {
    post().replyWithError(headersTimeout());
    readBack().reply(200, matching(), JSON_REPLY);
    await h.client.createAgent(body);
    expect(callLines()).toEqual(["POST /v1/agents", "GET /v1/agents/voice-bot"]);
  });

  it("ECONNREFUSED (never sent): the POST is simply retried, without a read-back", async () => {
    post().replyWithError(refused());
    post().reply(200, matching(), JSON_REPLY);

    const agent = await h.client.createAgent(body);

    expect(agent.name).toBe("voice-bot");
    expect(callLines()).toEqual(["POST /v1/agents", "POST /v1/agents"]);
    expect(h.sleeps).toEqual([500]);
    expect(h.notes).toEqual([{ method: "POST", path: "/v1/agents", attempt: 1, delayMs: 500, reason: "ECONNREFUSED" }]);
  });

  it("ECONNREFUSED every time: 3 retries, then the ConnectionError", async () => {
    post().replyWithError(refused()).times(4);
    const error = (await rejectionOf(h.client.createAgent(body))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.notSent).toBe(true);
    expect(callLines()).toEqual(Array(4).fill("POST /v1/agents"));
    expect(h.sleeps).toEqual([500, 1000, 2000]);
  });

  it("429 with Retry-After: 2: the POST is retried after 2000 ms, without a read-back", async () => {
    post().reply(429, errorJson("RATE_LIMITED", "slow"), RETRY_AFTER_2);
    post().reply(200, matching(), JSON_REPLY);

    await h.client.createAgent(body);

    expect(callLines()).toEqual(["POST /v1/agents", "POST /v1/agents"]);
    expect(h.sleeps).toEqual([2000]);
  });

  it("429 every time: 3 retries, then the RateLimitError", async () => {
    post().reply(429, errorJson("RATE_LIMITED", "slow"), JSON_REPLY).times(4);
    expect(await rejectionOf(h.client.createAgent(body))).toBeInstanceOf(RateLimitError);
    expect(callLines()).toEqual(Array(4).fill("POST /v1/agents"));
    expect(h.sleeps).toEqual([500, 1000, 2000]);
  });

  it("a first-answer 409 (name taken by someone else) is thrown as is, without a read-back", async () => {
    post().reply(409, errorJson("CONFLICT", "serviceName taken"), JSON_REPLY);
    const error = (await rejectionOf(h.client.createAgent(body))) as ConflictError;
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.serviceMessage).toBe("serviceName taken");
    expect(callLines()).toEqual(["POST /v1/agents"]);
  });

  it("a 400 is neither retried nor read back", async () => {
    post().reply(400, errorJson("GENERIC_BAD_REQUEST", "bad image"), JSON_REPLY);
    expect(await rejectionOf(h.client.createAgent(body))).toBeInstanceOf(BadRequestError);
    expect(callLines()).toEqual(["POST /v1/agents"]);
  });

  it("500, 404 on read-back, then 409 on the second POST: read back again and the same agent is returned", async () => {
    post().reply(500, "");
    readBack().reply(...notFound);
    post().reply(409, errorJson("CONFLICT", "serviceName taken"), JSON_REPLY);
    readBack().reply(200, matching(), JSON_REPLY);

    const agent = await h.client.createAgent(body);

    expect(agent.name).toBe("voice-bot");
    expect(callLines()).toEqual(["POST /v1/agents", "GET /v1/agents/voice-bot", "POST /v1/agents", "GET /v1/agents/voice-bot"]);
  });

  it("500 every time and never found: 4 POSTs in all, then the ServerError", async () => {
    for (let i = 0; i < 4; i++) {
      post().reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY);
      readBack().reply(...notFound);
    }
    const error = (await rejectionOf(h.client.createAgent(body))) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.method).toBe("POST");
    expect(error.path).toBe("/v1/agents");
    expect(callLines().filter((l) => l === "POST /v1/agents")).toHaveLength(4);
    expect(callLines().filter((l) => l === "GET /v1/agents/voice-bot")).toHaveLength(4);
    expect(h.notes.map((n) => n.attempt)).toEqual([1, 2, 3]);
  });

  it("the read-back itself is retried like any GET", async () => {
    post().reply(500, "");
    readBack().reply(503, "");
    readBack().reply(200, matching(), JSON_REPLY);
    await h.client.createAgent(body);
    expect(callLines()).toEqual(["POST /v1/agents", "GET /v1/agents/voice-bot", "GET /v1/agents/voice-bot"]);
    expect(h.sleeps).toEqual([500]);
  });

  it("a read-back that fails otherwise (401) surfaces that error", async () => {
    post().reply(500, "");
    readBack().reply(401, errorJson("UNAUTHORIZED", "key revoked"), JSON_REPLY);
    expect(await rejectionOf(h.client.createAgent(body))).toBeInstanceOf(AuthenticationError);
    expect(h.calls()).toHaveLength(2);
  });

  it("a malformed 200 answer is a ResponseValidationError, not a reason to post again", async () => {
    post().reply(200, { name: "voice-bot" }, JSON_REPLY);
    expect(await rejectionOf(h.client.createAgent(body))).toBeInstanceOf(ResponseValidationError);
    expect(callLines()).toEqual(["POST /v1/agents"]);
  });

  it("without autoScaling in the body, the read-back's scaling limits are not compared", async () => {
    const minimal: CreateAgentBody = { serviceName: "voice-bot", image: IMAGE };
    h.api.intercept({ path: "/v1/agents", method: "POST" }).reply(500, "");
    readBack().reply(200, agentJson({ minReplicas: 0, maxReplicas: 10 }), JSON_REPLY);
    const agent = await h.client.createAgent(minimal);
    expect(agent.autoScaling).toEqual({ minReplicas: 0, maxReplicas: 10 });
    expect(h.calls()).toHaveLength(2);
  });
});

// ---------------------------------------------------------------------------
// updateAgent: the full-body update is idempotent in effect, so it is retried.

describe("updateAgent after a failure", () => {
  const body = { image: IMAGE, autoScaling: { minAgents: 1, maxAgents: 2 } };
  const post = () => h.api.intercept({ path: "/v1/agents/voice-bot", method: "POST", body: JSON.stringify(body) });

  it("500, then 200: posted again after 500 ms with the same body", async () => {
    post().reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY);
    post().reply(200, agentJson({ minReplicas: 1, maxReplicas: 2 }), JSON_REPLY);

    const agent = await h.client.updateAgent("voice-bot", body);

    expect(agent.autoScaling).toEqual({ minReplicas: 1, maxReplicas: 2 });
    expect(callLines()).toEqual(["POST /v1/agents/voice-bot", "POST /v1/agents/voice-bot"]);
    expect(h.sleeps).toEqual([500]);
    expect(h.notes).toEqual([
      { method: "POST", path: "/v1/agents/voice-bot", attempt: 1, delayMs: 500, reason: "500 INTERNAL_SERVER_ERROR" },
    ]);
  });

  it.each([
    ["500", (x: ReturnType<typeof post>) => x.reply(500, "").times(4), ServerError],
    ["ECONNRESET", (x: ReturnType<typeof post>) => x.replyWithError(reset()).times(4), ConnectionError],
    ["ECONNREFUSED", (x: ReturnType<typeof post>) => x.replyWithError(refused()).times(4), ConnectionError],
    ["a timeout", (x: ReturnType<typeof post>) => x.replyWithError(headersTimeout()).times(4), TimeoutError],
    ["429", (x: ReturnType<typeof post>) => x.reply(429, "").times(4), RateLimitError],
  ] as const)("%s every time: 3 retries (500, 1000, 2000 ms), then the error", async (_label, register, cls) => {
    register(post());
    expect(await rejectionOf(h.client.updateAgent("voice-bot", body))).toBeInstanceOf(cls);
    expect(callLines()).toEqual(Array(4).fill("POST /v1/agents/voice-bot"));
    expect(h.sleeps).toEqual([500, 1000, 2000]);
  });

  it("429 with Retry-After: 2 waits 2000 ms", async () => {
    post().reply(429, errorJson("RATE_LIMITED", "slow"), RETRY_AFTER_2);
    post().reply(200, agentJson(), JSON_REPLY);
    await h.client.updateAgent("voice-bot", body);
    expect(h.sleeps).toEqual([2000]);
  });

  it.each([
    [400, BadRequestError],
    [404, NotFoundError],
    [409, ConflictError],
  ] as const)("a %i is not retried", async (status, cls) => {
    post().reply(status, errorJson("X", "no"), JSON_REPLY);
    expect(await rejectionOf(h.client.updateAgent("voice-bot", body))).toBeInstanceOf(cls);
    expect(h.calls()).toHaveLength(1);
  });
});

describe("onRetry", () => {
  it("hears nothing when the first attempt succeeds", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson(), JSON_REPLY);
    await h.client.getAgent("voice-bot");
    expect(h.notes).toEqual([] as RetryNote[]);
    expect(h.sleeps).toEqual([]);
  });
});
