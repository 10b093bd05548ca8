/** The /_emulator/ control endpoints: faults, rate limit, stats, request log, reset, loopback only. */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { networkInterfaces } from "node:os";
import { Client } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator";
import { harness, sleep, type Harness } from "./support/emulator-harness";

const API_KEY = "control-test-key-NEVER-LOGGED";
let h: Harness;

beforeAll(async () => {
  h = await harness({ apiKey: API_KEY, readyAfterMs: 100, secretSets: { "start-set": ["A"] } });
});
afterAll(async () => h?.close());
afterEach(async () => {
  await h.control.reset();
});

const create = (serviceName: string) => h.call("POST", "/v1/agents", { json: { serviceName, image: "bot:1" } });

describe("faults", () => {
  it("status: the next N matching requests get that status and { error, code }", async () => {
    await create("fault-bot");
    await h.control.injectFault({ method: "GET", path: "/v1/agents/*", kind: "status", status: 503, count: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await h.call("GET", "/v1/agents/fault-bot");
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ error: expect.any(String), code: "INTERNAL_SERVER_ERROR" });
    }
    expect((await h.call("GET", "/v1/agents/fault-bot")).status).toBe(200);
    expect((await h.control.stats()).faultsFired).toBe(2);
  });

  it("status 429 sends Retry-After: 1; a code can be given; other methods and paths are not hit", async () => {
    await create("fault-bot");
    await h.control.injectFault({ method: "GET", path: "/v1/agents/fault-bot", kind: "status", status: 429 });
    await h.control.injectFault({ method: "DELETE", path: "/v1/agents/fault-bot", kind: "status", status: 500, code: "CUSTOM_CODE" });
    expect((await h.call("GET", "/v1/agents/other-bot")).status).toBe(404);
    expect((await h.call("POST", "/v1/agents/fault-bot", { json: { image: "bot:1" } })).status).toBe(200);
    const limited = await h.call("GET", "/v1/agents/fault-bot");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.body.code).toBe("RATE_LIMITED");
    const custom = await h.call("DELETE", "/v1/agents/fault-bot");
    expect(custom.status).toBe(500);
    expect(custom.body.code).toBe("CUSTOM_CODE");
    expect((await h.call("GET", "/v1/agents/fault-bot")).status).toBe(200);
  });

  it("delay: waits, then answers normally", async () => {
    await create("slow-bot");
    await h.control.injectFault({ method: "*", path: "/v1/agents/slow-bot", kind: "delay", delayMs: 300 });
    const started = Date.now();
    const r = await h.call("GET", "/v1/agents/slow-bot");
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("slow-bot");
    const fast = Date.now();
    await h.call("GET", "/v1/agents/slow-bot");
    expect(Date.now() - fast).toBeLessThan(280);
  });

  it("drop-before: the connection is dropped and nothing is done", async () => {
    await h.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-before" });
    await expect(create("dropped-bot")).rejects.toThrow();
    expect((await h.call("GET", "/v1/agents/dropped-bot")).status).toBe(404);
    expect((await h.control.listAgents()).agents).toEqual([]);
    expect((await create("dropped-bot")).status).toBe(200);
  });

  it("drop-after: the agent is created although the connection dropped without an answer", async () => {
    await h.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-after" });
    await expect(create("half-bot")).rejects.toThrow();
    const r = await h.call("GET", "/v1/agents/half-bot");
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("half-bot");
    expect((await create("half-bot")).status).toBe(409);
    const { requests } = await h.control.requests();
    expect(requests.filter((x) => x.dropped).map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual(["POST /v1/agents 0"]);
  });

  it("DELETE /_emulator/faults disarms them; a bad fault is refused", async () => {
    await create("calm-bot");
    await h.control.injectFault({ method: "GET", path: "*", kind: "status", status: 500, count: 100 });
    await h.control.clearFaults();
    expect((await h.call("GET", "/v1/agents/calm-bot")).status).toBe(200);
    for (const bad of [
      { method: "GET", path: "/v1/agents", kind: "explode" },
      { method: "GET", path: "/v1/agents", kind: "status", status: 200 },
      { method: "GET", path: "/v1/agents", kind: "delay" },
      { path: "/v1/agents", kind: "drop-before" },
      { method: "GET", path: "/v1/agents", kind: "drop-before", count: 0 },
    ]) {
      const r = await h.call("POST", "/_emulator/faults", { json: bad, key: null });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe("rate limit", () => {
  it("the excess gets 429 RATE_LIMITED with Retry-After, until disabled", async () => {
    await h.control.setRateLimit({ requestsPerWindow: 3, windowMs: 60_000, retryAfterSeconds: 7 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await h.call("GET", "/v1/secrets/start-set")).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await h.call("GET", "/v1/secrets/start-set");
    expect(limited.body).toEqual({ error: expect.any(String), code: "RATE_LIMITED" });
    expect(limited.headers.get("retry-after")).toBe("7");
    // Control calls are never limited.
    expect((await h.control.stats()).rateLimited).toBe(3);
    await h.control.setRateLimit({ disabled: true });
    expect((await h.call("GET", "/v1/secrets/start-set")).status).toBe(200);
  });

  it("a new window lets requests through again", async () => {
    await h.control.setRateLimit({ requestsPerWindow: 1, windowMs: 200, retryAfterSeconds: 1 });
    expect((await h.call("GET", "/v1/secrets/start-set")).status).toBe(200);
    expect((await h.call("GET", "/v1/secrets/start-set")).status).toBe(429);
    await sleep(250);
    expect((await h.call("GET", "/v1/secrets/start-set")).status).toBe(200);
  });

  it("a bad spec is refused", async () => {
    for (const bad of [{}, { requestsPerWindow: -1 }, { requestsPerWindow: 1, windowMs: 0 }, { requestsPerWindow: "3" }]) {
      expect((await h.call("POST", "/_emulator/rate-limit", { json: bad, key: null })).status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe("stats", () => {
  it("counts requests by route", async () => {
    await create("stats-bot");
    await h.call("GET", "/v1/agents/stats-bot");
    await h.call("GET", "/v1/agents/stats-bot");
    await h.call("GET", "/v1/agents/stats-bot", { key: "wrong" });
    const stats = await h.control.stats();
    expect(stats.requests).toBe(4);
    expect(stats.byRoute).toEqual({ "POST /v1/agents": 1, "GET /v1/agents/stats-bot": 3 });
  });

  it("one keep-alive connection carries many requests; without keep-alive each request is a connection", async () => {
    await create("conn-bot");
    const before = await h.control.stats();
    const client = new Client(h.emulator.baseUrl, { pipelining: 1 });
    try {
      for (let i = 0; i < 20; i++) {
        const r = await client.request({ method: "GET", path: "/v1/agents/conn-bot", headers: { authorization: `Bearer ${API_KEY}` } });
        expect(r.statusCode).toBe(200);
        await r.body.text();
      }
    } finally {
      await client.close();
    }
    const middle = await h.control.stats();
    expect(middle.apiConnections - before.apiConnections).toBe(1);
    expect(middle.connections - before.connections).toBe(1);
    expect(middle.requests - before.requests).toBe(20);

    const agent = new HttpAgent({ keepAlive: false });
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          { agent, host: "127.0.0.1", port: h.emulator.port, path: "/v1/agents/conn-bot", headers: { authorization: `Bearer ${API_KEY}`, connection: "close" } },
          (res) => {
            res.resume();
            res.on("end", () => resolve());
          },
        );
        req.on("error", reject);
        req.end();
      });
    }
    agent.destroy();
    const after = await h.control.stats();
    expect(after.apiConnections - middle.apiConnections).toBe(5);
    expect(after.connections - middle.connections).toBe(5);
  });
});

describe("request log", () => {
  it("keeps method, path, status and headers with the key redacted, never the key", async () => {
    await create("log-bot");
    await h.call("GET", "/v1/agents/log-bot");
    await h.call("GET", "/v1/agents/log-bot", { key: "a-wrong-key-ALSO-SECRET" });
    await h.call("DELETE", "/v1/agents/log-bot");
    const { requests } = await h.control.requests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /v1/agents 200",
      "GET /v1/agents/log-bot 200",
      "GET /v1/agents/log-bot 401",
      "DELETE /v1/agents/log-bot 200",
    ]);
    for (const r of requests) expect(r.headers["authorization"]).toBe("Bearer [REDACTED]");
    const everything = JSON.stringify([requests, await h.control.stats(), await h.control.listAgents()]);
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain("a-wrong-key-ALSO-SECRET");
  });

  it("keeps the last 1000", async () => {
    for (let i = 0; i < 1010; i++) await h.call("GET", `/v1/secrets/set-${i}`, { key: null });
    const { requests } = await h.control.requests();
    expect(requests).toHaveLength(1000);
    expect(requests[0]?.path).toBe("/v1/secrets/set-10");
    expect(requests[999]?.path).toBe("/v1/secrets/set-1009");
  });
});

describe("reset and seeding", () => {
  it("clears agents, logs, faults, rate limit, counters; keeps the start sets unless all", async () => {
    await create("reset-bot");
    await h.control.seedSecretSet("seeded-set", ["X", "Y"]);
    expect((await h.call("GET", "/v1/secrets/seeded-set")).body).toEqual({ secrets: [{ fieldName: "X" }, { fieldName: "Y" }] });
    await h.control.injectFault({ method: "*", path: "*", kind: "status", status: 500, count: 10 });
    await h.control.setRateLimit({ requestsPerWindow: 0, windowMs: 60_000, retryAfterSeconds: 1 });
    await h.control.reset();
    const stats = await h.control.stats();
    expect(stats).toEqual({ connections: 0, apiConnections: 0, requests: 0, byRoute: {}, rateLimited: 0, faultsFired: 0 });
    expect((await h.control.listAgents()).agents).toEqual([]);
    expect((await h.control.requests()).requests).toEqual([]);
    expect((await h.call("GET", "/v1/agents/reset-bot")).status).toBe(404);
    expect((await h.call("GET", "/v1/secrets/seeded-set")).status).toBe(404);
    expect((await h.call("GET", "/v1/secrets/start-set")).status).toBe(200);
    await h.control.reset(true);
    expect((await h.call("GET", "/v1/secrets/start-set")).status).toBe(404);
    await h.control.reset(); // the start sets come back
    expect((await h.call("GET", "/v1/secrets/start-set")).status).toBe(200);
  });

  it("bulk logs need a known agent and deployment; bad bodies are refused", async () => {
    await create("bulk-bot");
    expect((await h.control.appendLogs("bulk-bot", 5)).appended).toBe(5);
    expect((await h.call("POST", "/_emulator/agents/no-bot/logs", { json: { count: 1 }, key: null })).status).toBe(404);
    for (const bad of [{ count: -1 }, { count: 1.5 }, { count: 1, deploymentId: "dep-unknown" }, { count: 1, intervalMs: 0 }, { count: 1, prefix: 3 }]) {
      expect((await h.call("POST", "/_emulator/agents/bulk-bot/logs", { json: bad, key: null })).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await h.call("POST", "/_emulator/secret-sets", { json: { name: "x" }, key: null })).status).toBe(400);
    expect((await h.call("POST", "/_emulator/secret-sets", { raw: "{", headers: { "content-type": "application/json" }, key: null })).status).toBe(400);
    expect((await h.call("GET", "/_emulator/unknown", { key: null })).status).toBe(404);
  });

  it("control endpoints take no key and are not counted as API requests", async () => {
    await h.control.listAgents();
    await h.control.stats();
    expect((await h.control.stats()).requests).toBe(0);
  });
});

describe("loopback only", () => {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

  it.skipIf(external === undefined)("a control call from a non-loopback address gets 403", async () => {
    const emulator = await startEmulator({ port: 0, host: "0.0.0.0" });
    try {
      const remote = await fetch(`http://${external}:${emulator.port}/_emulator/stats`);
      expect(remote.status).toBe(403);
      expect(((await remote.json()) as { code: string }).code).toBe("FORBIDDEN");
      const local = await fetch(`http://127.0.0.1:${emulator.port}/_emulator/stats`);
      expect(local.status).toBe(200);
    } finally {
      await emulator.close();
    }
  });
});
