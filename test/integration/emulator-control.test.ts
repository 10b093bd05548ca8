/**
 * The emulator's /_emulator/ controls: injected faults of each kind, the rate
 * limit, stats and connection counting (keep-alive through the project's
 * client and without it), the request log with the key redacted, reset and
 * seeding, and control calls from loopback only.
 */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { networkInterfaces } from "node:os";
import { Client } from "undici";
import { afterAll, beforeEach, beforeAll, describe, expect, it } from "vitest";
import { RateLimitError, ServerError } from "../../src/client/errors";
import type { RetryNote } from "../../src/client/client";
import type { RequestRecord } from "../../src/emulator/request-log";
import { API_KEY } from "../support/fixtures";
import { sleep, startEmu, type Emu } from "../support/emulator-fixture";

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
      expect(r.json).toEqual({ error: "injected fault: 503", code: "INTERNAL_SERVER_ERROR" });
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

  it("sends Retry-After: 1 and the code RATE_LIMITED with a 429 fault", async () => {
    await emu.control.injectFault({ method: "GET", path: "/v1/secrets/voice-secrets", kind: "status", status: 429 });
    const limited = await emu.raw("GET", "/v1/secrets/voice-secrets");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.json.code).toBe("RATE_LIMITED");
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
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
    const client = emu.newClient({ onRetry: (note) => notes.push(note) });
    expect((await client.getAgent("retry-bot")).name).toBe("retry-bot");
    expect(notes).toHaveLength(2);
    const records = (await emu.control.requests()).requests.filter((r) => r.path === "/v1/agents/retry-bot" && r.method === "GET");
    expect(records.map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it("is a ServerError through a client that does not retry", async () => {
    await emu.control.injectFault({ method: "GET", path: "/v1/secrets/voice-secrets", kind: "status", status: 503 });
    const error = await emu.newClient({ maxRetries: 0 }).getSecretSet("voice-secrets").catch((e: unknown) => e);
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
    for (const bad of [
      { method: "GET", path: "/v1/agents", kind: "explode" },
      { path: "/v1/agents", kind: "drop-before" },
      { method: "GET", path: "/v1/agents", kind: "drop-before", count: 0 },
    ]) {
      const r = await emu.raw("POST", "/_emulator/faults", { json: bad, authorization: null });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
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
    expect((await emu.raw("POST", "/v1/agents", { json: createBody("ghost-bot") })).status).toBe(409);
    const { requests } = await emu.control.requests();
    expect(requests.filter((x) => x.dropped).map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual(["POST /v1/agents 0"]);
  });

  it("drop-after on a delete: the agent is gone although no answer came", async () => {
    await emu.raw("POST", "/v1/agents", { json: createBody("vanish-bot") });
    await emu.control.injectFault({ method: "DELETE", path: "/v1/agents/*", kind: "drop-after" });
    await expect(emu.raw("DELETE", "/v1/agents/vanish-bot")).rejects.toThrow();
    expect((await emu.raw("GET", "/v1/agents/vanish-bot")).status).toBe(404);
  });

  it("the project's client recovers from both: one agent each, never two posts that both created", async () => {
    const client = emu.newClient();
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
    expect(third.json).toEqual({ error: "rate limit exceeded", code: "RATE_LIMITED" });
    // A create is refused too, and not performed.
    expect((await emu.raw("POST", "/v1/agents", { json: createBody("limited-bot") })).status).toBe(429);
    // Control calls are not limited.
    expect((await emu.control.stats()).rateLimited).toBe(2);

    const error = await emu.newClient({ maxRetries: 0 }).getSecretSet("voice-secrets").catch((e: unknown) => e);
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
    await sleep(250);
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
  });

  it("refuses a bad spec", async () => {
    for (const bad of [{}, { requestsPerWindow: -1 }, { requestsPerWindow: 1, windowMs: 0 }, { requestsPerWindow: "3" }]) {
      expect((await emu.raw("POST", "/_emulator/rate-limit", { json: bad, authorization: null })).status, JSON.stringify(bad)).toBe(400);
    }
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
    const client = emu.newClient();
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

  it("counts requests by route, a refused one too", async () => {
    await emu.raw("POST", "/v1/agents", { json: createBody("stats-bot") });
    await emu.raw("GET", "/v1/agents/stats-bot");
    await emu.raw("GET", "/v1/agents/stats-bot");
    await emu.raw("GET", "/v1/agents/stats-bot", { authorization: "Bearer wrong" });
    const stats = await emu.control.stats();
    expect(stats.requests).toBe(4);
    expect(stats.byRoute).toEqual({ "POST /v1/agents": 1, "GET /v1/agents/stats-bot": 3 });
  });

  it("one raw keep-alive connection carries many requests; without keep-alive each request is a connection", async () => {
    await emu.raw("POST", "/v1/agents", { json: createBody("conn-bot") });
    const headers = { authorization: `Bearer ${API_KEY}` };
    const before = await emu.control.stats();
    const client = new Client(emu.emulator.baseUrl, { pipelining: 1 });
    try {
      for (let i = 0; i < 20; i++) {
        const r = await client.request({ method: "GET", path: "/v1/agents/conn-bot", headers });
        expect(r.statusCode).toBe(200);
        await r.body.text();
      }
    } finally {
      await client.close();
    }
    const middle = await emu.control.stats();
    expect(middle.apiConnections - before.apiConnections).toBe(1);
    expect(middle.connections - before.connections).toBe(1);
    expect(middle.requests - before.requests).toBe(20);

    const agent = new HttpAgent({ keepAlive: false });
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve, reject) => {
        const options = { agent, host: "127.0.0.1", port: emu.emulator.port, path: "/v1/agents/conn-bot", headers: { ...headers, connection: "close" } };
        const req = httpRequest(options, (res) => {
          res.resume();
          res.on("end", () => resolve());
        });
        req.on("error", reject);
        req.end();
      });
    }
    agent.destroy();
    const after = await emu.control.stats();
    expect(after.apiConnections - middle.apiConnections).toBe(5);
    expect(after.connections - middle.connections).toBe(5);
  });

  it("counts a new connection for each new client", async () => {
    const a = emu.newClient();
    const b = emu.newClient();
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
    const client = emu.newClient();
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
    const text = JSON.stringify([requests, await emu.control.stats(), await emu.control.listAgents()]);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain("SECRET");
    expect(text).not.toContain(wrongKey);
  });

  it("stamps each request with when it arrived, before a delay fault holds its answer back", async () => {
    await emu.control.injectFault({ method: "GET", path: "/v1/secrets/stamp-set", kind: "delay", delayMs: 300 });
    const before = Date.now();
    await emu.raw("GET", "/v1/secrets/stamp-set");
    const answered = Date.now();
    await emu.raw("GET", "/v1/secrets/stamp-set-2");
    const records = (await emu.control.requests()).requests.filter((r) => r.path.startsWith("/v1/secrets/stamp-set"));
    expect(records.map((r) => r.path)).toEqual(["/v1/secrets/stamp-set", "/v1/secrets/stamp-set-2"]);
    const [delayed, next] = records as [RequestRecord, RequestRecord];
    expect(delayed.receivedAtMs).toBeGreaterThanOrEqual(before);
    // Received before the fault's 300 ms delay, which the answer waited for.
    expect(delayed.receivedAtMs).toBeLessThanOrEqual(answered - 300);
    expect(next.receivedAtMs).toBeGreaterThanOrEqual(answered);
  });

  it("keeps the last 1000", async () => {
    for (let i = 0; i < 1010; i++) await emu.raw("GET", `/v1/secrets/set-${i}`, { authorization: null });
    const { requests } = await emu.control.requests();
    expect(requests).toHaveLength(1000);
    expect(requests[0]?.path).toBe("/v1/secrets/set-10");
    expect(requests[999]?.path).toBe("/v1/secrets/set-1009");
  });
});

describe("reset and seeding", () => {
  it("clears agents, logs, faults, rate limit, counters; keeps the start sets unless all", async () => {
    await emu.raw("POST", "/v1/agents", { json: createBody("reset-bot") });
    await emu.control.seedSecretSet("seeded-set", ["X", "Y"]);
    expect((await emu.raw("GET", "/v1/secrets/seeded-set")).json).toEqual({ secrets: [{ fieldName: "X" }, { fieldName: "Y" }] });
    await emu.control.injectFault({ method: "*", path: "*", kind: "status", status: 500, count: 10 });
    await emu.control.setRateLimit({ requestsPerWindow: 0, windowMs: 60_000, retryAfterSeconds: 1 });
    await emu.control.reset();
    const stats = await emu.control.stats();
    expect(stats).toEqual({ connections: 0, apiConnections: 0, requests: 0, byRoute: {}, rateLimited: 0, faultsFired: 0 });
    expect((await emu.control.listAgents()).agents).toEqual([]);
    expect((await emu.control.requests()).requests).toEqual([]);
    expect((await emu.raw("GET", "/v1/agents/reset-bot")).status).toBe(404);
    expect((await emu.raw("GET", "/v1/secrets/seeded-set")).status).toBe(404);
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
    await emu.control.reset(true);
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(404);
    await emu.control.reset(); // the start sets come back
    expect((await emu.raw("GET", "/v1/secrets/voice-secrets")).status).toBe(200);
  });

  it("bulk logs need a known agent and deployment; bad bodies are refused", async () => {
    await emu.raw("POST", "/v1/agents", { json: createBody("bulk-bot") });
    expect((await emu.control.appendLogs("bulk-bot", 5)).appended).toBe(5);
    const control = (path: string, options: { json?: unknown; body?: string; headers?: Record<string, string> }) =>
      emu.raw("POST", path, { ...options, authorization: null });
    expect((await control("/_emulator/agents/no-bot/logs", { json: { count: 1 } })).status).toBe(404);
    for (const bad of [{ count: -1 }, { count: 1.5 }, { count: 1, deploymentId: "dep-unknown" }, { count: 1, intervalMs: 0 }, { count: 1, prefix: 3 }]) {
      expect((await control("/_emulator/agents/bulk-bot/logs", { json: bad })).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await control("/_emulator/secret-sets", { json: { name: "x" } })).status).toBe(400);
    expect((await control("/_emulator/secret-sets", { body: "{", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await emu.raw("GET", "/_emulator/unknown", { authorization: null })).status).toBe(404);
  });

  it("control endpoints take no key and are not counted as API requests", async () => {
    await emu.control.listAgents();
    await emu.control.stats();
    expect((await emu.control.stats()).requests).toBe(0);
  });
});

describe("loopback only", () => {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

  // A machine without a non-loopback IPv4 address cannot show the 403: the test fails saying so, rather than passing by skipping.
  it("a control call from a non-loopback address gets 403", async () => {
    expect(external, "this machine has no non-loopback IPv4 interface (os.networkInterfaces()); the test needs one to call the emulator from").toBeDefined();
    const emulator = await startEmu({ host: "0.0.0.0" });
    try {
      const remote = await fetch(`http://${String(external)}:${emulator.port}/_emulator/stats`);
      expect(remote.status).toBe(403);
      expect(((await remote.json()) as { code: string }).code).toBe("FORBIDDEN");
      const local = await fetch(`http://127.0.0.1:${emulator.port}/_emulator/stats`);
      expect(local.status).toBe(200);
    } finally {
      await emulator.close();
    }
  });
});
