/**
 * The emulator's test controls: injected faults of each kind, the rate limit,
 * connection counting (keep-alive through the project's client) and the
 * request log with the key redacted.
 */
import { afterAll, beforeEach, beforeAll, describe, expect, it } from "vitest";
import { RateLimitError, ServerError } from "../../src/client/errors";
import type { RetryNote } from "../../src/client/client";
import { API_KEY, startEmu, type Emu } from "./support/emulator-kit";

let emu: Emu;

beforeAll(async () => {
  emu = await startEmu();
});
afterAll(async () => emu?.close());
beforeEach(async () => {
  await emu.control.reset();
});

const createBody = (serviceName: string) => ({ serviceName, image: "bot:1" });

describe("status faults", () => {
  it("answers 503 to the next 2 matching requests, then normally", async () => {
    await emu.raw("POST", "/v1/agents", { json: createBody("status-bot") });
    await emu.control.injectFault({ method: "GET", path: "/v1/agents/status-bot", kind: "status", status: 503, count: 2 });
    // Another path and another method are not affected.
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
    expect((await emu.raw("POST", "/v1/agents/status-bot", { json: { image: "bot:1" } })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await emu.raw("GET", "/v1/agents/status-bot");
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ error: expect.any(String), code: "INTERNAL_SERVER_ERROR" });
    }
    const ok = await emu.raw("GET", "/v1/agents/status-bot");
    expect(ok.status).toBe(200);
    expect(ok.json.name).toBe("status-bot");
    expect((await emu.control.stats()).faultsFired).toBe(2);
  });

  it("answers a status fault even without a key (it comes before authentication)", async () => {
    await emu.control.injectFault({ method: "*", path: "/v1/secrets/voice-secrets", kind: "status", status: 500 });
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets", { authorization: null })).status).toBe(500);
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets", { authorization: null })).status).toBe(401);
  });

  it("uses the code given with the fault", async () => {
    await emu.control.injectFault({ method: "GET", path: "/v1/secrets/voice-secrets", kind: "status", status: 502, code: "BAD_GATEWAY" });
    const r = await emu.raw("GET", "/v1/secrets/voice-secrets");
    expect(r.status).toBe(502);
    expect(r.json.code).toBe("BAD_GATEWAY");
  });

  it("matches a path prefix ending in * for any method", async () => {
    await emu.control.injectFault({ method: "*", path: "/v1/agents*", kind: "status", status: 500, count: 3 });
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
    expect((await emu.raw("POST", "/v1/agents", { json: createBody("prefix-bot") })).status).toBe(500);
    expect((await emu.raw("GET", "/v1/agents/prefix-bot")).status).toBe(500);
    expect((await emu.raw("GET", "/v1/agents/prefix-bot/logs")).status).toBe(500);
    // Spent: the create goes through now, and it was not created by the faulted POST.
    expect((await emu.raw("GET", "/v1/agents/prefix-bot")).status).toBe(404);
    expect((await emu.raw("POST", "/v1/agents", { json: createBody("prefix-bot") })).status).toBe(200);
  });

  it("is retried by the project's client on a GET, which then succeeds", async () => {
    await emu.raw("POST", "/v1/agents", { json: createBody("retry-bot") });
    await emu.control.injectFault({ method: "GET", path: "/v1/agents/retry-bot", kind: "status", status: 503, count: 2 });
    const notes: RetryNote[] = [];
    const client = emu.client({ onRetry: (note) => notes.push(note) });
    expect((await client.getAgent("retry-bot")).name).toBe("retry-bot");
    expect(notes).toHaveLength(2);
    const records = (await emu.control.requests()).requests.filter((r) => r.path === "/v1/agents/retry-bot" && r.method === "GET");
    expect(records.map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it("is a ServerError through a client that does not retry", async () => {
    await emu.control.injectFault({ method: "GET", path: "/v1/secrets/voice-secrets", kind: "status", status: 503 });
    const error = await emu.client({ maxRetries: 0 }).getSecretSet("voice-secrets").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(503);
  });

  it("clearFaults disarms every fault", async () => {
    await emu.control.injectFault({ method: "*", path: "/v1/*", kind: "status", status: 500, count: 10 });
    await emu.control.clearFaults();
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
    expect((await emu.control.stats()).faultsFired).toBe(0);
  });

  it("refuses a malformed fault", async () => {
    await expect(emu.control.injectFault({ method: "GET", path: "/v1/x", kind: "status", status: 200 })).rejects.toThrow(/400/);
    await expect(emu.control.injectFault({ method: "GET", path: "/v1/x", kind: "delay" })).rejects.toThrow(/400/);
    await expect(emu.control.injectFault({ method: "GET", path: "/v1/x", kind: "teleport" as "delay", delayMs: 1 })).rejects.toThrow(/400/);
  });
});

describe("delay faults", () => {
  it("answers no sooner than delayMs, then normally", async () => {
    const delayMs = 300;
    await emu.control.injectFault({ method: "GET", path: "/v1/secrets/voice-secrets", kind: "delay", delayMs });
    const t0 = performance.now();
    const slow = await emu.raw("GET", "/v1/secrets/voice-secrets");
    const slowMs = performance.now() - t0;
    expect(slow.status).toBe(200);
    expect(slow.json).toEqual({ secrets: [{ fieldName: "A" }, { fieldName: "B" }] });
    // Timers may fire up to 1 ms early against performance.now().
    expect(slowMs).toBeGreaterThanOrEqual(delayMs - 2);
    // Spent after one request.
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
    expect((await emu.control.stats()).faultsFired).toBe(1);
  });

  it("delays a create that then happens", async () => {
    await emu.control.injectFault({ method: "POST", path: "/v1/agents", kind: "delay", delayMs: 150 });
    const t0 = performance.now();
    const r = await emu.raw("POST", "/v1/agents", { json: createBody("slow-bot") });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(148);
    expect(r.status).toBe(200);
    expect((await emu.raw("GET", "/v1/agents/slow-bot")).status).toBe(200);
  });
});

describe("dropped connections", () => {
  it("drop-before: fetch rejects and the agent was NOT created", async () => {
    await emu.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-before" });
    await expect(emu.raw("POST", "/v1/agents", { json: createBody("dropped-bot") })).rejects.toThrow();
    expect((await emu.raw("GET", "/v1/agents/dropped-bot")).status).toBe(404);
    expect((await emu.control.listAgents()).agents.map((a) => a.name)).not.toContain("dropped-bot");
    const records = (await emu.control.requests()).requests.filter((r) => r.method === "POST" && r.path === "/v1/agents");
    expect(records).toEqual([expect.objectContaining({ status: 0, dropped: true })]);
    // The server still works, and the fault is spent.
    expect((await emu.raw("POST", "/v1/agents", { json: createBody("dropped-bot") })).status).toBe(200);
  });

  it("drop-after: fetch rejects and the agent WAS created", async () => {
    await emu.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-after" });
    await expect(emu.raw("POST", "/v1/agents", { json: createBody("ghost-bot") })).rejects.toThrow();
    const r = await emu.raw("GET", "/v1/agents/ghost-bot");
    expect(r.status).toBe(200);
    expect(r.json.name).toBe("ghost-bot");
    expect((await emu.control.listAgents()).agents.map((a) => a.name)).toContain("ghost-bot");
  });

  it("drop-after on a delete: the agent is gone although no answer came", async () => {
    await emu.raw("POST", "/v1/agents", { json: createBody("vanish-bot") });
    await emu.control.injectFault({ method: "DELETE", path: "/v1/agents/*", kind: "drop-after" });
    await expect(emu.raw("DELETE", "/v1/agents/vanish-bot")).rejects.toThrow();
    expect((await emu.raw("GET", "/v1/agents/vanish-bot")).status).toBe(404);
  });

  it("the project's client recovers from both: one agent each, never two posts that both created", async () => {
    const client = emu.client();
    await emu.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-after" });
    const after = await client.createAgent(createBody("client-after-bot"));
    expect(after.name).toBe("client-after-bot");
    await emu.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-before" });
    const before = await client.createAgent(createBody("client-before-bot"));
    expect(before.name).toBe("client-before-bot");
    const posts = (await emu.control.requests()).requests.filter((r) => r.method === "POST" && r.path === "/v1/agents");
    // drop-after: the dropped POST created it and the read-back found it (no second POST);
    // drop-before: the dropped POST, a 404 read-back, then one POST that created it.
    expect(posts.map((r) => r.status)).toEqual([0, 0, 200]);
    expect((await emu.control.listAgents()).agents.map((a) => a.name).sort()).toEqual(["client-after-bot", "client-before-bot"]);
  });
});

describe("rate limit", () => {
  it("answers 429 RATE_LIMITED with Retry-After past requestsPerWindow, counts it, and can be disabled", async () => {
    await emu.control.setRateLimit({ requestsPerWindow: 2, windowMs: 60_000, retryAfterSeconds: 3 });
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
    expect((await emu.raw("GET", "/v1/agents/nobody-bot")).status).toBe(404);
    const third = await emu.raw("GET", "/v1/secrets/voice-secrets");
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("3");
    expect(third.json).toEqual({ error: expect.any(String), code: "RATE_LIMITED" });
    // A create is refused too, and not performed.
    expect((await emu.raw("POST", "/v1/agents", { json: createBody("limited-bot") })).status).toBe(429);
    // Control calls are not limited.
    expect((await emu.control.stats()).rateLimited).toBe(2);

    const error = await emu.client({ maxRetries: 0 }).getSecretSet("voice-secrets").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(3);
    expect((error as RateLimitError).code).toBe("RATE_LIMITED");
    expect((await emu.control.stats()).rateLimited).toBe(3);

    await emu.control.setRateLimit({ disabled: true });
    for (let i = 0; i < 5; i++) expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
    expect((await emu.raw("GET", "/v1/agents/limited-bot")).status).toBe(404);
    expect((await emu.control.stats()).rateLimited).toBe(3);
  });

  it("opens a new window after windowMs", async () => {
    await emu.control.setRateLimit({ requestsPerWindow: 1, windowMs: 200, retryAfterSeconds: 1 });
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
    const limited = await emu.raw("GET", "/v1/secrets/voice-secrets");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
  });

  it("is cleared by reset()", async () => {
    await emu.control.setRateLimit({ requestsPerWindow: 0, windowMs: 60_000, retryAfterSeconds: 9 });
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(429);
    await emu.control.reset();
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
    expect((await emu.control.stats()).rateLimited).toBe(0);
  });
});

describe("stats", () => {
  it("sees 20 sequential calls through one client as one keep-alive connection", async () => {
    await emu.raw("POST", "/v1/agents", { json: createBody("keepalive-bot") });
    const client = emu.client();
    await emu.control.reset(); // counters from 0; also clears the agent
    await emu.control.seedSecretSet("keep-set", ["X"]);
    await client.createAgent(createBody("keepalive-bot"));
    for (let i = 0; i < 19; i++) {
      if (i % 3 === 0) await client.getAgent("keepalive-bot");
      else if (i % 3 === 1) await client.getAgentLogs({ agentName: "keepalive-bot", limit: 5 });
      else await client.getSecretSet("keep-set");
    }
    const stats = await emu.control.stats();
    expect(stats.requests).toBe(20);
    expect(stats.apiConnections).toBe(1);
    expect(stats.connections).toBe(1);
    expect(stats.byRoute["POST /v1/agents"]).toBe(1);
    expect(stats.byRoute["GET /v1/agents/keepalive-bot"]).toBe(7);
    expect(stats.byRoute["GET /v1/agents/keepalive-bot/logs"]).toBe(6);
    expect(stats.byRoute["GET /v1/secrets/keep-set"]).toBe(6);
  });

  it("counts a new connection for each new client", async () => {
    const a = emu.client();
    const b = emu.client();
    await emu.control.reset();
    await a.getSecretSet("voice-secrets");
    await b.getSecretSet("voice-secrets");
    await a.getSecretSet("voice-secrets");
    const stats = await emu.control.stats();
    expect(stats.requests).toBe(3);
    expect(stats.apiConnections).toBe(2);
  });
});

describe("request log", () => {
  it("redacts the authorization header and holds no key anywhere", async () => {
    const wrongKey = "k-WRONGKEY-4242";
    const client = emu.client();
    await client.createAgent(createBody("audit-bot"));
    await client.getAgent("audit-bot");
    await emu.raw("GET", "/v1/secrets/voice-secrets");
    await emu.raw("GET", "/v1/secrets/voice-secrets", { authorization: `Bearer ${wrongKey}` });
    await emu.raw("GET", "/v1/secrets/voice-secrets", { authorization: `Basic ${API_KEY}` });
    await emu.raw("GET", "/v1/secrets/voice-secrets", { authorization: null });
    await emu.control.injectFault({ method: "GET", path: "/v1/agents/audit-bot", kind: "drop-before" });
    await expect(emu.raw("GET", "/v1/agents/audit-bot")).rejects.toThrow();

    const { requests } = await emu.control.requests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /v1/agents 200",
      "GET /v1/agents/audit-bot 200",
      "GET /v1/secrets/voice-secrets 200",
      "GET /v1/secrets/voice-secrets 401",
      "GET /v1/secrets/voice-secrets 401",
      "GET /v1/secrets/voice-secrets 401",
      "GET /v1/agents/audit-bot 0",
    ]);
    const withHeader = requests.filter((_r, i) => i !== 5);
    for (const record of withHeader) expect(record.headers["authorization"]).toBe("Bearer [REDACTED]");
    expect(requests[5]?.headers["authorization"]).toBeUndefined();
    expect(requests[0]?.headers["content-type"]).toBe("application/json");
    const text = JSON.stringify(requests);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain("SECRET");
    expect(text).not.toContain(wrongKey);
  });
});
