/**
 * The functions under agentHostingMocks (src/testing): getSecretSet answers
 * from the given sets and fails for another as the provider's handler does;
 * getAgentLogs pages the given lines with limit, offset, order and query as
 * the service does; bad arguments are refused with the handler's failures.
 */
import { describe, expect, it } from "vitest";
import { REGISTRY } from "../../src/registry";
import { agentHostingMocks, MockRefusalError } from "../../src/testing";

const token = (name: string) => REGISTRY.functions.find((f) => f.name === name)!.token;
const LINES = ["booting", "model loaded", "ready", "panic: lost the model", "restarted"];
const mocks = agentHostingMocks({
  secretSets: { "bot-secrets": ["OPENAI_KEY", "SIP_PASSWORD"] },
  logs: { "voice-bot": LINES, "timed-bot": [{ log: "at noon", timestamp: "2026-03-01T12:00:00.123456789Z", deploymentId: "dep-1" }] },
});
const call = (name: string, inputs: Record<string, unknown>) => Promise.resolve().then(() => mocks.call({ token: token(name), inputs }));
const texts = (result: Record<string, unknown>) => (result["logs"] as { log: string }[]).map((l) => l.log);

describe("getSecretSet under the mocks", () => {
  it("answers a given set's field names", async () => {
    expect(await call("getSecretSet", { name: "bot-secrets" })).toEqual({ name: "bot-secrets", fieldNames: ["OPENAI_KEY", "SIP_PASSWORD"] });
  });

  it("fails for a set it was not given, as the provider does", async () => {
    await expect(call("getSecretSet", { name: "other-set" })).rejects.toThrow('secret set "other-set" does not exist (GET /secrets/other-set answered 404)');
  });

  it("refuses a bad name with the handler's failure", async () => {
    const error = await call("getSecretSet", { name: "ab" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockRefusalError);
    expect((error as MockRefusalError).failures.map((f) => f.property)).toEqual(["name"]);
  });
});

describe("getAgentLogs under the mocks", () => {
  it("answers newest first by default, ten at most, with the total", async () => {
    const result = await call("getAgentLogs", { agentName: "voice-bot" });
    expect(texts(result)).toEqual([...LINES].reverse());
    expect(result["total"]).toEqual({ value: 5, relation: "eq" });
  });

  it("applies limit, offset and order", async () => {
    expect(texts(await call("getAgentLogs", { agentName: "voice-bot", order: "asc", limit: 2, offset: 1 }))).toEqual(["model loaded", "ready"]);
    expect(texts(await call("getAgentLogs", { agentName: "voice-bot", limit: 1 }))).toEqual(["restarted"]);
  });

  it("applies query and deploymentId, and keeps a given time to the nanosecond", async () => {
    const found = await call("getAgentLogs", { agentName: "voice-bot", query: "PANIC" });
    expect(texts(found)).toEqual(["panic: lost the model"]);
    expect(found["total"]).toEqual({ value: 1, relation: "eq" });
    const timed = await call("getAgentLogs", { agentName: "timed-bot", deploymentId: "dep-1" });
    expect(timed["logs"]).toEqual([{ log: "at noon", timestamp: "2026-03-01T12:00:00.123456789Z" }]);
    expect(texts(await call("getAgentLogs", { agentName: "timed-bot", deploymentId: "dep-2" }))).toEqual([]);
  });

  it("refuses a bad limit with the handler's failure, and fails for an agent it knows nothing of", async () => {
    const error = await call("getAgentLogs", { agentName: "voice-bot", limit: 0 }).catch((e: unknown) => e);
    expect((error as MockRefusalError).failures).toEqual([{ property: "limit", reason: "must be an integer from 1 to 1000" }]);
    await expect(call("getAgentLogs", { agentName: "nobody" })).rejects.toThrow(/404/);
  });
});
