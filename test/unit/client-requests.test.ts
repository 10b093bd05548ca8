/**
 * AgentHostingClient: the shape of every request (method, path under the
 * /v1 base path, query string, headers, exact JSON body) and the typed result
 * parsed from a valid answer.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MockCallHistoryLog } from "undici";
import { displayPath } from "../../src/client/transport";
import { JSON_REPLY, collect, headersOf, logEntries, makeHarness, type Harness } from "./support/client-harness";
import { API_KEY, agentJson, IMAGE } from "../support/fixtures";
import { documented } from "../support/documented-agent";


let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  await h.finish();
});

function onlyCall(): MockCallHistoryLog {
  const calls = h.calls();
  expect(calls).toHaveLength(1);
  return calls[0] as MockCallHistoryLog;
}

function expectJsonPost(call: MockCallHistoryLog, path: string, body: unknown): void {
  expect(call.method).toBe("POST");
  expect(call.path).toBe(path);
  expect(call.fullUrl).toBe(`https://api.test${path}`);
  const headers = headersOf(call);
  expect(headers["authorization"]).toBe(`Bearer ${API_KEY}`);
  expect(headers["content-type"]).toBe("application/json");
  expect(headers["accept"]).toBe("application/json");
  expect(call.body).toBe(JSON.stringify(body));
}

function expectBodylessCall(call: MockCallHistoryLog, method: string, path: string): void {
  expect(call.method).toBe(method);
  expect(call.path).toBe(path);
  const headers = headersOf(call);
  expect(headers["authorization"]).toBe(`Bearer ${API_KEY}`);
  expect(headers["accept"]).toBe("application/json");
  expect(headers["content-type"]).toBeUndefined();
  expect(call.body ?? null).toBeNull();
}

describe("createAgent", () => {
  it("POSTs the exact JSON body to /v1/agents with the bearer header and returns the typed agent", async () => {
    const body = { serviceName: "voice-bot", image: IMAGE };
    h.api
      .intercept({
        path: "/v1/agents",
        method: "POST",
        headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
        body: (b: string) => b === JSON.stringify(body),
      })
      .reply(200, agentJson(), JSON_REPLY);

    const agent = await h.client.createAgent(body);

    expectJsonPost(onlyCall(), "/v1/agents", body);
    expect(agent.name).toBe("voice-bot");
    expect(agent.ready).toBe(false);
    expect(agent.activeDeploymentReady).toBe(false);
    expect(agent.activeSessionCount).toBe(0);
    expect(agent.activeDeploymentId).toBe("dep-1");
    expect(agent.autoScaling).toEqual({ minReplicas: 1, maxReplicas: 3 });
    expect(agent.deployment?.id).toBe("dep-1");
    expect(documented(agent).deployment.manifest.apiVersion).toBe("x.test/v1");
    expect(documented(agent).deployment.manifest.metadata).toEqual({ name: "voice-bot", namespace: "ns-1" });
    expect(documented(agent).deployment.manifest.spec.image).toBe(IMAGE);
    expect(documented(agent).deployment.manifest.spec.noiseModels.enabled).toBe(false);
  });

  it("sends every optional field exactly as given, in the given order", async () => {
    const body = {
      serviceName: "voice-bot",
      image: IMAGE,
      nodeType: "arm" as const,
      imagePullSecretSet: "pull.secrets",
      secretSet: "team-secrets",
      autoScaling: { minAgents: 2, maxAgents: 5 },
      enableNoise: true,
    };
    h.api
      .intercept({ path: "/v1/agents", method: "POST" })
      .reply(
        200,
        agentJson({ minReplicas: 2, maxReplicas: 5, envFromSecretNames: ["team-secrets"], noise: true }),
        JSON_REPLY,
      );

    const agent = await h.client.createAgent(body);

    const call = onlyCall();
    expectJsonPost(call, "/v1/agents", body);
    expect(JSON.parse(String(call.body))).toEqual(body);
    expect(agent.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 5 });
    expect(documented(agent).deployment.manifest.spec.envFromSecretNames).toEqual(["team-secrets"]);
    expect(documented(agent).deployment.manifest.spec.noiseModels.enabled).toBe(true);
  });

  it("tolerates unknown extra response fields and accepts deployment: null", async () => {
    h.api
      .intercept({ path: "/v1/agents", method: "POST" })
      .reply(200, { ...agentJson(), deployment: null, region: "eu-1" }, JSON_REPLY);
    const agent = await h.client.createAgent({ serviceName: "voice-bot", image: IMAGE });
    expect(agent.deployment).toBeNull();
    expect(agent.name).toBe("voice-bot");
  });
});

describe("getAgent", () => {
  it("GETs /v1/agents/{name} with no body and returns the agent", async () => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "GET", headers: { authorization: `Bearer ${API_KEY}` } })
      .reply(200, agentJson({ ready: true, deploymentId: "dep-7" }), JSON_REPLY);

    const agent = await h.client.getAgent("voice-bot");

    expectBodylessCall(onlyCall(), "GET", "/v1/agents/voice-bot");
    expect(agent.ready).toBe(true);
    expect(agent.activeDeploymentReady).toBe(true);
    expect(agent.activeDeploymentId).toBe("dep-7");
  });

  it("sends the default user agent, or the one configured", async () => {
    await h.finish();
    h = makeHarness({ userAgent: "my-tool/2.0" });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson(), JSON_REPLY);
    await h.client.getAgent("voice-bot");
    expect(headersOf(onlyCall())["user-agent"]).toBe("my-tool/2.0");
  });

  it("the default user agent is pulumi-agent-hosting", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson(), JSON_REPLY);
    await h.client.getAgent("voice-bot");
    expect(headersOf(onlyCall())["user-agent"]).toBe("pulumi-agent-hosting");
  });
});

describe("updateAgent", () => {
  it("POSTs the exact full body (no serviceName) to /v1/agents/{name}", async () => {
    const body = { image: "registry.example.com/voice-bot:1.5.0", autoScaling: { minAgents: 0, maxAgents: 4 } };
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "POST", headers: { "content-type": "application/json" } })
      .reply(200, agentJson({ image: body.image, minReplicas: 0, maxReplicas: 4, deploymentId: "dep-2" }), JSON_REPLY);

    const agent = await h.client.updateAgent("voice-bot", body);

    expectJsonPost(onlyCall(), "/v1/agents/voice-bot", body);
    expect(agent.activeDeploymentId).toBe("dep-2");
    expect(documented(agent).deployment.manifest.spec.image).toBe("registry.example.com/voice-bot:1.5.0");
    expect(agent.autoScaling).toEqual({ minReplicas: 0, maxReplicas: 4 });
  });
});

describe("deleteAgent", () => {
  it("sends DELETE /v1/agents/{name} and resolves to undefined on { status: OK }", async () => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "DELETE", headers: { authorization: `Bearer ${API_KEY}` } })
      .reply(200, { status: "OK" }, JSON_REPLY);

    await expect(h.client.deleteAgent("voice-bot")).resolves.toBeUndefined();

    expectBodylessCall(onlyCall(), "DELETE", "/v1/agents/voice-bot");
  });
});

describe("getAgentLogs", () => {
  it("sends every query parameter; a Date becomes whole Unix seconds", async () => {
    h.api
      .intercept({ path: (p: string) => p.startsWith("/v1/agents/voice-bot/logs?"), method: "GET" })
      .reply(200, { total: { value: 0, relation: "eq" }, logs: [] }, JSON_REPLY);

    await h.client.getAgentLogs({
      agentName: "voice-bot",
      limit: 50,
      offset: 100,
      deploymentId: "dep 1&x=y",
      query: "error timeout",
      order: "asc",
      startTime: new Date("2024-05-01T10:00:00.999Z"),
      endTime: 1714561200,
    });

    const call = onlyCall();
    expectBodylessCall(call, "GET", "/v1/agents/voice-bot/logs");
    expect(call.searchParams).toEqual({
      limit: "50",
      offset: "100",
      deploymentId: "dep 1&x=y",
      query: "error timeout",
      order: "asc",
      startTime: "1714557600",
      endTime: "1714561200",
    });
    // The reserved characters of a value are encoded, not passed raw.
    expect(call.fullUrl).toContain("deploymentId=dep+1%26x%3Dy");
    expect(call.fullUrl).toContain("query=error+timeout");
  });

  it("sends no query string when only the agent is given", async () => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot/logs", method: "GET" })
      .reply(200, { total: { value: 0, relation: "eq" }, logs: [] }, JSON_REPLY);
    await h.client.getAgentLogs({ agentName: "voice-bot" });
    const call = onlyCall();
    expect(call.fullUrl).toBe("https://api.test/v1/agents/voice-bot/logs");
    expect(call.searchParams).toEqual({});
  });

  it("returns the typed page; timestamps keep all 9 fractional digits as strings", async () => {
    const logs = [
      { log: "started", timestamp: "2024-05-01T10:00:00.123456789Z" },
      { log: "listening on :8080", timestamp: "2024-05-01T10:00:00.123456780Z" },
      { log: "ready", timestamp: "2024-05-01T10:00:01.000000001Z" },
    ];
    h.api
      .intercept({ path: "/v1/agents/voice-bot/logs?limit=3", method: "GET" })
      .reply(200, JSON.stringify({ total: { value: 42, relation: "eq" }, logs }), JSON_REPLY);

    const result = await h.client.getAgentLogs({ agentName: "voice-bot", limit: 3 });

    expect(result.total).toEqual({ value: 42, relation: "eq" });
    expect(result.logs).toEqual(logs);
    expect(result.logs.map((l) => l.timestamp)).toEqual([
      "2024-05-01T10:00:00.123456789Z",
      "2024-05-01T10:00:00.123456780Z",
      "2024-05-01T10:00:01.000000001Z",
    ]);
    for (const entry of result.logs) expect(typeof entry.timestamp).toBe("string");
  });
});

describe("iterateAgentLogs", () => {
  it("sends the filters on every page, with limit = pageSize and no pageSize parameter", async () => {
    h.api
      .intercept({ path: (p: string) => p.startsWith("/v1/agents/voice-bot/logs?"), method: "GET" })
      .reply(200, { total: { value: 3, relation: "eq" }, logs: logEntries(0, 2) }, JSON_REPLY);
    h.api
      .intercept({ path: (p: string) => p.startsWith("/v1/agents/voice-bot/logs?"), method: "GET" })
      .reply(200, { total: { value: 3, relation: "eq" }, logs: logEntries(2, 1) }, JSON_REPLY);

    const entries = await collect(
      h.client.iterateAgentLogs({
        agentName: "voice-bot",
        pageSize: 2,
        deploymentId: "dep-1",
        query: "error",
        order: "asc",
        startTime: new Date("2024-05-01T00:00:00.500Z"),
        endTime: 1714600000,
      }),
    );

    expect(entries.map((e) => e.log)).toEqual(["line 0", "line 1", "line 2"]);
    const calls = h.calls();
    expect(calls).toHaveLength(2);
    const common = { deploymentId: "dep-1", query: "error", order: "asc", startTime: "1714521600", endTime: "1714600000" };
    expect(calls[0]?.searchParams).toEqual({ ...common, limit: "2", offset: "0" });
    expect(calls[1]?.searchParams).toEqual({ ...common, limit: "2", offset: "2" });
    for (const call of calls) expectBodylessCall(call, "GET", "/v1/agents/voice-bot/logs");
  });
});

describe("getSecretSet", () => {
  it("GETs /v1/secrets/{setName} and returns the field names", async () => {
    h.api
      .intercept({ path: "/v1/secrets/team.secrets", method: "GET", headers: { authorization: `Bearer ${API_KEY}` } })
      .reply(200, { secrets: [{ fieldName: "OPENAI_API_KEY" }, { fieldName: "DB_URL" }] }, JSON_REPLY);

    const set = await h.client.getSecretSet("team.secrets");

    expectBodylessCall(onlyCall(), "GET", "/v1/secrets/team.secrets");
    expect(set.secrets.map((s) => s.fieldName)).toEqual(["OPENAI_API_KEY", "DB_URL"]);
  });

  it("accepts names of exactly 3 and 63 characters", async () => {
    const long = "a".repeat(63);
    h.api.intercept({ path: "/v1/secrets/abc", method: "GET" }).reply(200, { secrets: [] }, JSON_REPLY);
    h.api.intercept({ path: `/v1/secrets/${long}`, method: "GET" }).reply(200, { secrets: [] }, JSON_REPLY);
    await expect(h.client.getSecretSet("abc")).resolves.toEqual({ secrets: [] });
    await expect(h.client.getSecretSet(long)).resolves.toEqual({ secrets: [] });
    expect(h.calls().map((c) => c.path)).toEqual(["/v1/secrets/abc", `/v1/secrets/${long}`]);
  });
});

describe("base URL and path building", () => {
  it("keeps the base path with a trailing slash on the base URL, without doubling it", async () => {
    await h.finish();
    h = makeHarness({ baseUrl: "https://api.test/v1/" });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson(), JSON_REPLY);
    await h.client.getAgent("voice-bot");
    expect(onlyCall().fullUrl).toBe("https://api.test/v1/agents/voice-bot");
  });

  it("keeps a deeper base path (a gateway prefix before /v1)", async () => {
    await h.finish();
    h = makeHarness({ baseUrl: "https://api.test/gw/hosting/v1" });
    h.api.intercept({ path: "/gw/hosting/v1/secrets/team-secrets", method: "GET" }).reply(200, { secrets: [] }, JSON_REPLY);
    await h.client.getSecretSet("team-secrets");
    expect(onlyCall().path).toBe("/gw/hosting/v1/secrets/team-secrets");
  });

  it("encodes every path segment", () => {
    expect(displayPath("/v1", ["agents", "a/b c", "logs"])).toBe("/v1/agents/a%2Fb%20c/logs");
    expect(displayPath("/v1", ["agents", "..", "x?y#z"])).toBe("/v1/agents/../x%3Fy%23z");
    expect(displayPath("/v1", ["secrets", "a%2Fb"])).toBe("/v1/secrets/a%252Fb");
  });
});
