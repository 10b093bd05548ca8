/**
 * AgentHostingClient: an answer that breaks the documented shape is a
 * ResponseValidationError naming the field, for every method.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentHostingError, NotFoundError, ResponseValidationError } from "../../src/client/errors";
import { MAX_RESPONSE_BYTES } from "../../src/client/transport";
import { JSON_REPLY, collect, logEntries, makeHarness, readUntilFailure, rejectionOf, type Harness } from "./support/client-harness";
import { agentJson, IMAGE } from "../support/fixtures";


let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  await h.finish();
});

function withoutKey(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

function deepSet(record: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(record);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

async function validationError(promise: Promise<unknown>): Promise<ResponseValidationError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ResponseValidationError);
  expect(error).toBeInstanceOf(AgentHostingError);
  return error as ResponseValidationError;
}

describe("agent answers (getAgent, createAgent, updateAgent)", () => {
  const broken: [string, Record<string, unknown>, string, RegExp][] = [
    ["a missing ready", withoutKey(agentJson(), "ready"), "ready", /ready: .*expected boolean/],
    ["activeDeploymentId as a number", { ...agentJson(), activeDeploymentId: 17 }, "activeDeploymentId", /expected string/],
    ["a missing autoScaling.maxReplicas", { ...agentJson(), autoScaling: { minReplicas: 1 } }, "autoScaling.maxReplicas", /number/],
    ["a deployment that is not an object", { ...agentJson(), deployment: "dep-1" }, "deployment", /expected object/],
  ];

  it.each(broken)("getAgent: %s -> names %s", async (_label, body, field, detail) => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, body, JSON_REPLY);
    const error = await validationError(h.client.getAgent("voice-bot"));
    expect(error.fields).toEqual([field]);
    expect(error.path).toBe("/v1/agents/voice-bot");
    expect(error.message).toContain("GET /v1/agents/voice-bot: the answer lacks what the package relies on");
    expect(error.message).toContain(`${field}: `);
    expect(error.message).toMatch(detail);
  });

  // What the package does not rely on is kept as the service sent it, whatever its shape.
  const tolerated: [string, Record<string, unknown>][] = [
    ["activeSessionCount not an integer", { ...agentJson(), activeSessionCount: 1.5 }],
    ["a missing manifest spec image", deepSet(agentJson(), ["deployment", "manifest", "spec", "image"], undefined)],
    ["an apiVersion of another form", deepSet(agentJson(), ["deployment", "manifest", "apiVersion"], "x.test/v2")],
    ["clusterLocal as a string", deepSet(agentJson(), ["deployment", "manifest", "spec", "clusterLocal"], "false")],
    ["deployment left out", withoutKey(agentJson(), "deployment")],
    ["deployment null", { ...agentJson(), deployment: null }],
    ["createdAt, updatedAt and activeSessionCount left out", withoutKey(withoutKey(withoutKey(agentJson(), "createdAt"), "updatedAt"), "activeSessionCount")],
    ["fields the document never names", { ...agentJson(), region: "eu-1", labels: { team: "voice" } }],
  ];

  it.each(tolerated)("getAgent: %s is accepted and kept as sent", async (_label, body) => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, body, JSON_REPLY);
    const agent = await h.client.getAgent("voice-bot");
    expect(agent).toEqual(JSON.parse(JSON.stringify(body)));
  });

  it("several broken fields are all named", async () => {
    const body = { ...agentJson(), ready: "yes", activeDeploymentId: 17, name: null };
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, body, JSON_REPLY);
    const error = await validationError(h.client.getAgent("voice-bot"));
    expect([...error.fields].sort()).toEqual(["activeDeploymentId", "name", "ready"]);
  });

  it("createAgent: a 200 without `ready` names it, after one POST", async () => {
    h.api.intercept({ path: "/v1/agents", method: "POST" }).reply(200, withoutKey(agentJson(), "ready"), JSON_REPLY);
    const error = await validationError(h.client.createAgent({ serviceName: "voice-bot", image: IMAGE }));
    expect(error.fields).toEqual(["ready"]);
    expect(error.message).toMatch(/^POST \/v1\/agents: /);
    expect(h.calls()).toHaveLength(1);
  });

  it("updateAgent: activeDeploymentId as a number names it", async () => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "POST" })
      .reply(200, { ...agentJson(), activeDeploymentId: 3 }, JSON_REPLY);
    const error = await validationError(h.client.updateAgent("voice-bot", { image: IMAGE }));
    expect(error.fields).toEqual(["activeDeploymentId"]);
    expect(error.message).toMatch(/^POST \/v1\/agents\/voice-bot: /);
  });

  it.each([
    ["a body that is not JSON", "<html>hello</html>", /18 bytes that are not JSON/],
    ["an empty body", "", /an empty body/],
    ["a truncated JSON", JSON.stringify(agentJson()).slice(0, 120), /120 bytes that are not JSON \(truncated or not JSON\)/],
  ])("getAgent: %s", async (_label, text, detail) => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, text, JSON_REPLY);
    const error = await validationError(h.client.getAgent("voice-bot"));
    expect(error.fields).toEqual([]);
    expect(error.message).toMatch(/expected a JSON body/);
    expect(error.message).toMatch(detail);
  });

  it("a JSON array instead of an object names the body", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, "[]", JSON_REPLY);
    const error = await validationError(h.client.getAgent("voice-bot"));
    expect(error.fields).toEqual(["(body)"]);
  });

  it("createAgent: a truncated answer is not a reason to post again", async () => {
    h.api.intercept({ path: "/v1/agents", method: "POST" }).reply(200, '{"name":"voice-bot","ready":', JSON_REPLY);
    const error = await validationError(h.client.createAgent({ serviceName: "voice-bot", image: IMAGE }));
    expect(error.message).toMatch(/not JSON/);
    expect(h.calls()).toHaveLength(1);
  });
});

describe("deleteAgent answers", () => {
  it.each([
    ["200 with { status }", 200, JSON.stringify({ status: "OK" })],
    ["200 with an empty object", 200, "{}"],
    ["200 with an empty body", 200, ""],
    ["204 without a body", 204, ""],
    ["202 with text", 202, "accepted"],
  ])("any 2xx is success: %s", async (_label, status, text) => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(status, text);
    await expect(h.client.deleteAgent("voice-bot")).resolves.toBeUndefined();
  });
});

describe("live session answers (getActiveSessionCount)", () => {
  it.each([
    ["a count", { ...agentJson(), activeSessionCount: 3 }, 3],
    ["no sessions", { ...agentJson(), activeSessionCount: 0 }, 0],
    ["the member left out", withoutKey(agentJson(), "activeSessionCount"), 0],
    ["the member null", { ...agentJson(), activeSessionCount: null }, 0],
    ["only the member, the rest of the agent not read", { activeSessionCount: 2 }, 2],
  ])("%s -> %s", async (_label, body, count) => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, body, JSON_REPLY);
    await expect(h.client.getActiveSessionCount("voice-bot")).resolves.toBe(count);
  });

  it.each([
    ["a count that is text", { ...agentJson(), activeSessionCount: "3" }, "activeSessionCount", /activeSessionCount: expected integer/],
    ["a fractional count", { ...agentJson(), activeSessionCount: 1.5 }, "activeSessionCount", /activeSessionCount: expected integer/],
    ["an array", [agentJson()], "(body)", /\(body\): expected object/],
  ])("%s -> names %s", async (_label, body, field, detail) => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, body, JSON_REPLY);
    const error = await validationError(h.client.getActiveSessionCount("voice-bot"));
    expect(error.fields).toEqual([field]);
    expect(error.message).toContain("GET /v1/agents/voice-bot: the answer lacks what the package relies on");
    expect(error.message).toMatch(detail);
  });

  it("is a NotFoundError for an agent the service does not have", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(404, { code: "NOT_FOUND", message: "no agent voice-bot" }, JSON_REPLY);
    await expect(h.client.getActiveSessionCount("voice-bot")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("names a body that is not JSON", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, "{\"activeSession", JSON_REPLY);
    const error = await validationError(h.client.getActiveSessionCount("voice-bot"));
    expect(error.message).toMatch(/bytes that are not JSON/);
  });
});

describe("log answers (getAgentLogs, iterateAgentLogs)", () => {
  const good = { total: { value: 3, relation: "eq" }, logs: logEntries(0, 3) };
  const broken: [string, unknown, string][] = [
    ["a missing total", { logs: [] }, "total"],
    ["total.value as a string", { total: { value: "3", relation: "eq" }, logs: [] }, "total.value"],
    ["total.value not an integer", { total: { value: 2.5, relation: "eq" }, logs: [] }, "total.value"],
    ["a missing total.relation", { total: { value: 3 }, logs: [] }, "total.relation"],
    ["logs not an array", { total: { value: 3, relation: "eq" }, logs: {} }, "logs"],
    ["an entry that is null", { ...good, logs: [good.logs[0], null] }, "logs.1"],
    ["an entry without log", { ...good, logs: [good.logs[0], { timestamp: "2024-05-01T10:00:00.000000001Z" }] }, "logs.1.log"],
    ["a numeric timestamp", { ...good, logs: [good.logs[0], good.logs[1], { log: "x", timestamp: 1714557600 }] }, "logs.2.timestamp"],
    ["an array body", [], "(body)"],
  ];

  it.each(broken)("getAgentLogs: %s -> names %s", async (_label, body, field) => {
    h.api.intercept({ path: "/v1/agents/voice-bot/logs?limit=3", method: "GET" }).reply(200, JSON.stringify(body), JSON_REPLY);
    const error = await validationError(h.client.getAgentLogs({ agentName: "voice-bot", limit: 3 }));
    expect(error.fields).toEqual([field]);
    expect(error.path).toBe("/v1/agents/voice-bot/logs");
    expect(error.message).toContain(`${field}: expected`);
    expect(h.calls()).toHaveLength(1);
  });

  it.each([
    ["not JSON", "oops", /4 bytes that are not JSON/],
    ["empty", "", /an empty body/],
    ["truncated", JSON.stringify(good).slice(0, 40), /40 bytes that are not JSON/],
  ])("getAgentLogs: a body that is %s", async (_label, text, detail) => {
    h.api.intercept({ path: "/v1/agents/voice-bot/logs", method: "GET" }).reply(200, text);
    const error = await validationError(h.client.getAgentLogs({ agentName: "voice-bot" }));
    expect(error.fields).toEqual([]);
    expect(error.message).toMatch(detail);
  });

  it("iterateAgentLogs: a broken second page rejects after the first page was yielded", async () => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot/logs?limit=2&offset=0", method: "GET" })
      .reply(200, { total: { value: 4, relation: "eq" }, logs: logEntries(0, 2) }, JSON_REPLY);
    h.api
      // Later pages end before the second after the first page's newest entry (10:00:01).
      .intercept({ path: "/v1/agents/voice-bot/logs?limit=2&offset=2&endTime=1714557601", method: "GET" })
      .reply(200, { total: { value: 4, relation: "eq" }, logs: [{ log: 5 }] }, JSON_REPLY);
    const { seen, error } = await readUntilFailure(h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 2 }));
    expect(seen.map((e) => e.log)).toEqual(["line 0", "line 1"]);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).fields).toEqual(["logs.0.log"]);
  });

  it("iterateAgentLogs: an empty body", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot/logs?limit=1000&offset=0", method: "GET" }).reply(200, "");
    const error = await validationError(collect(h.client.iterateAgentLogs({ agentName: "voice-bot" })));
    expect(error.message).toMatch(/an empty body/);
  });
});

describe("secret set answers", () => {
  it.each([
    ["a missing secrets", {}, "secrets"],
    ["an entry without fieldName", { secrets: [{ fieldName: "A" }, { name: "B" }] }, "secrets.1.fieldName"],
    ["a numeric fieldName", { secrets: [{ fieldName: 7 }] }, "secrets.0.fieldName"],
  ])("getSecretSet: %s -> names %s", async (_label, body, field) => {
    h.api.intercept({ path: "/v1/secrets/team-secrets", method: "GET" }).reply(200, body, JSON_REPLY);
    const error = await validationError(h.client.getSecretSet("team-secrets"));
    expect(error.fields).toEqual([field]);
    expect(error.message).toMatch(/^GET \/v1\/secrets\/team-secrets: /);
  });

  it("getSecretSet: a truncated JSON", async () => {
    h.api.intercept({ path: "/v1/secrets/team-secrets", method: "GET" }).reply(200, '{"secrets":[{"fieldName":"A"}', JSON_REPLY);
    const error = await validationError(h.client.getSecretSet("team-secrets"));
    expect(error.message).toMatch(/29 bytes that are not JSON/);
  });
});

describe("answer size", () => {
  it("a body over the 16 MiB cap is refused, not buffered whole, and not retried", async () => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "GET" })
      .reply(200, Buffer.alloc(MAX_RESPONSE_BYTES + 1, 0x20), JSON_REPLY);
    const error = await validationError(h.client.getAgent("voice-bot"));
    expect(error.message).toMatch(/larger than 16777216 bytes/);
    expect(h.calls()).toHaveLength(1);
  });
});
