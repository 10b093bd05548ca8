/**
 * Every provider method against undici's MockAgent (net connect disabled):
 * the requests each one makes and what it returns, as the dynamic provider
 * host calls them.
 */
import { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuthenticationError } from "../../src/client/errors";
import { useDispatcher } from "../../src/provider/connection";
import { AgentNotReadyError } from "../../src/provider/failures";
import * as impl from "../../src/provider/implementation";
import { API_KEY, agentJson, type AgentJsonOptions } from "../support/fixtures";
import { JSON_REPLY, ORIGIN, BASE_URL } from "./support/client-harness";

/** A service Agent answer that is ready, or not. */
const readyAgent = (name: string, options: AgentJsonOptions = {}) => agentJson({ name, ready: true, ...options });
const notReady = (name: string, options: AgentJsonOptions = {}) => agentJson({ name, ready: false, ...options });

let mockAgent: MockAgent;
const settings = new Map([
  ["agent-hosting:apiKey", API_KEY],
  ["agent-hosting:baseUrl", BASE_URL],
]);

beforeEach(async () => {
  mockAgent = new MockAgent();
  mockAgent.disableNetConnect();
  useDispatcher(mockAgent);
  await impl.configure({ get: (key) => settings.get(key) });
});

afterEach(async () => {
  mockAgent.assertNoPendingInterceptors();
  useDispatcher(undefined);
  await mockAgent.close();
});

const api = () => mockAgent.get(ORIGIN);
const inputs = async (news: Record<string, unknown>) => (await impl.check({}, { ...news, __provider: "shim" })).inputs;

describe("create", () => {
  it("POSTs the body without provider settings, polls until ready, returns every output", async () => {
    let sent: unknown;
    api()
      .intercept({ path: "/v1/agents", method: "POST", headers: { authorization: `Bearer ${API_KEY}` } })
      .reply(200, (opts) => {
        sent = JSON.parse(String(opts.body));
        return notReady("voice-bot");
      }, JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, notReady("voice-bot"), JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, readyAgent("voice-bot"), JSON_REPLY);
    const { id, outs } = await impl.create(
      await inputs({ serviceName: "voice-bot", image: "bot:1", autoScaling: { minAgents: 1, maxAgents: 2 }, readyTimeoutSeconds: 30 }),
    );
    expect(sent).toEqual({ serviceName: "voice-bot", image: "bot:1", nodeType: "arm", enableNoise: false, autoScaling: { minAgents: 1, maxAgents: 2 } });
    expect(id).toBe("voice-bot");
    expect(outs).toMatchObject({ name: "voice-bot", ready: true, readyTimeoutSeconds: 30, waitForReady: true });
    expect(outs.manifest).toEqual(outs.deployment?.manifest);
  });

  it("with waitForReady false: one POST, no polling", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(200, notReady("quick-bot"), JSON_REPLY);
    const { outs } = await impl.create(await inputs({ serviceName: "quick-bot", image: "bot:1", waitForReady: false }));
    expect(outs.ready).toBe(false);
  });

  it("a never-ready agent: partial-create error with id, properties and the newest log lines", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(200, notReady("slow-bot"), JSON_REPLY);
    api().intercept({ path: "/v1/agents/slow-bot", method: "GET" }).reply(200, notReady("slow-bot")).persist();
    api()
      .intercept({ path: (p) => p.startsWith("/v1/agents/slow-bot/logs?"), method: "GET" })
      .reply(200, { total: { value: 2, relation: "eq" }, logs: [
        { log: "Error: crash", timestamp: "2026-11-23T00:00:02.000000002Z" },
        { log: "Starting", timestamp: "2026-11-23T00:00:01.000000001Z" },
      ] }, JSON_REPLY);
    const error = await impl.create(await inputs({ serviceName: "slow-bot", image: "bot:1", readyTimeoutSeconds: 1 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentNotReadyError);
    const e = error as AgentNotReadyError;
    expect(e.id).toBe("slow-bot");
    expect(e.properties["__provider"]).toBe("shim");
    expect(e.message).toMatch(/did not become ready within 1 s/);
    expect(e.message.indexOf("Starting")).toBeLessThan(e.message.indexOf("Error: crash"));
    expect(e.message).not.toContain(API_KEY);
  });

  it("a 409 for an identical agent takes it over; a different one is a conflict", async () => {
    const conflict = { error: "taken", code: "CONFLICT" };
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(409, conflict, JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, readyAgent("voice-bot"), JSON_REPLY);
    const image = readyAgent("voice-bot").deployment.manifest.spec.image;
    const { outs } = await impl.create(await inputs({ serviceName: "voice-bot", image }));
    expect(outs.name).toBe("voice-bot");
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(409, conflict, JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, readyAgent("voice-bot"), JSON_REPLY);
    await expect(impl.create(await inputs({ serviceName: "voice-bot", image: "other:9" }))).rejects.toThrow(/already exists with a different spec/);
  });

  it("a 401 surfaces as AuthenticationError without the key", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(401, { error: "bad key", code: "UNAUTHORIZED" }, JSON_REPLY);
    const error = await impl.create(await inputs({ serviceName: "voice-bot", image: "bot:1" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify(error) + String(error)).not.toContain(API_KEY);
  });
});

describe("read", () => {
  it("a 404 on refresh removes the resource (empty id)", async () => {
    api().intercept({ path: "/v1/agents/gone-bot", method: "GET" }).reply(404, { error: "nope", code: "NOT_FOUND" }, JSON_REPLY);
    expect(await impl.read("gone-bot", { serviceName: "gone-bot", image: "bot:1" })).toEqual({ id: "", props: {} });
  });

  it("rebuilds the inputs from the live manifest, keeping the provider settings", async () => {
    const live = readyAgent("drift-bot");
    api().intercept({ path: "/v1/agents/drift-bot", method: "GET" }).reply(200, live, JSON_REPLY);
    const result = await impl.read("drift-bot", { serviceName: "drift-bot", image: "old:1", readyTimeoutSeconds: 42 });
    expect(result.inputs).toMatchObject({ serviceName: "drift-bot", image: live.deployment?.manifest.spec.image, readyTimeoutSeconds: 42 });
    expect(result.props["activeDeploymentId"]).toBe(live.activeDeploymentId);
  });

  it("Agent.get of a missing agent is a clear error", async () => {
    api().intercept({ path: "/v1/agents/ghost", method: "GET" }).reply(404, { error: "nope", code: "NOT_FOUND" }, JSON_REPLY);
    await expect(impl.read("ghost", { __provider: "shim" })).rejects.toThrow(/Agent.get: agent "ghost" does not exist/);
  });
});

describe("update", () => {
  it("POSTs the full body to the agent and waits for the new deployment", async () => {
    let sent: unknown;
    api().intercept({ path: "/v1/agents/voice-bot", method: "POST" }).reply(200, (opts) => {
      sent = JSON.parse(String(opts.body));
      return notReady("voice-bot", { deploymentId: "dep-new" });
    }, JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, readyAgent("voice-bot", { deploymentId: "dep-new" }), JSON_REPLY);
    const olds = { serviceName: "voice-bot", image: "bot:1", nodeType: "arm", enableNoise: false };
    const { outs } = await impl.update("voice-bot", olds, await inputs({ serviceName: "voice-bot", image: "bot:2", secretSet: "team-secrets" }));
    expect(sent).toEqual({ image: "bot:2", nodeType: "arm", enableNoise: false, secretSet: "team-secrets" });
    expect(outs).toMatchObject({ activeDeploymentId: "dep-new", image: "bot:2", secretSet: "team-secrets" });
  });

  it("a change of provider settings only reads the agent, sending nothing", async () => {
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, readyAgent("voice-bot"), JSON_REPLY);
    const olds = { serviceName: "voice-bot", image: "bot:1", nodeType: "arm", enableNoise: false, readyTimeoutSeconds: 600 };
    const { outs } = await impl.update("voice-bot", olds, await inputs({ serviceName: "voice-bot", image: "bot:1", readyTimeoutSeconds: 60 }));
    expect(outs.readyTimeoutSeconds).toBe(60);
  });
});

describe("delete", () => {
  it("DELETEs the agent; a 404 counts as deleted", async () => {
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(200, { status: "OK" }, JSON_REPLY);
    await expect(impl.remove("voice-bot")).resolves.toBeUndefined();
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(404, { error: "nope", code: "NOT_FOUND" }, JSON_REPLY);
    await expect(impl.remove("voice-bot")).resolves.toBeUndefined();
  });

  it("a 500 on delete is retried", async () => {
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(500, { error: "boom", code: "INTERNAL_SERVER_ERROR" }, JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(200, { status: "OK" }, JSON_REPLY);
    await expect(impl.remove("voice-bot")).resolves.toBeUndefined();
  });
});
