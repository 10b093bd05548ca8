/**
 * Every provider method against undici's MockAgent (net connect disabled):
 * the requests each one makes and what it returns, as the dynamic provider
 * host calls them; answers shaped as any reading of the service may shape
 * them. The MockAgent and a recording log are handed to the provider's factory.
 */
import { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AgentIncompleteError,
  AgentNotFoundError,
  AgentNotReadyError,
  AuthenticationError,
  ConflictError,
} from "../../src/client/errors";
import { createEngineLog, type LogEntry } from "../../src/core/engine-log";
import { SECRET_SIGNATURE, SIGNATURE_KEY, UNKNOWN_VALUE as SIGNATURE_UNKNOWN } from "../../src/core/engine-sentinels";
import { createProviderCore } from "../../src/core/provider-core";
import type { DynamicProvider } from "../../src/hosts/dynamic/dynamic-host";
import { REGISTRY } from "../../src/registry";
import { createAgentDynamicProvider as createDynamicProvider } from "../../src/hosts/dynamic/provider-impl";
import { DYNAMIC_AGENT_TYPE } from "../../src/resources/agent/type-tokens";

/** The pending mark, as the state keeps it. */
const PENDING_KEY = "__pending";
import { API_KEY, agentJson as agentJsonOf, type AgentJson, type AgentJsonOptions } from "../support/fixtures";
import { JSON_REPLY, ORIGIN, BASE_URL } from "./support/client-harness";

type Live = AgentJsonOptions & { name: string; createdAt?: string };
/** A service Agent answer: ready unless said otherwise, created just now unless said otherwise. */
function agentJson(o: Live): AgentJson {
  const { createdAt = new Date().toISOString(), ...options } = o;
  return { ...agentJsonOf({ ready: true, ...options }), createdAt };
}

let mockAgent: MockAgent;
let impl: DynamicProvider & { remove(id: string): Promise<void> };
/** What the provider told the engine. */
let logged: LogEntry[];
const settings = new Map([
  ["agent-hosting:apiKey", API_KEY],
  ["agent-hosting:baseUrl", BASE_URL],
]);

beforeEach(async () => {
  mockAgent = new MockAgent({ enableCallHistory: true });
  mockAgent.disableNetConnect();
  logged = [];
  const provider = createDynamicProvider({
    client: { dispatcher: mockAgent, retryBaseDelayMs: 5, retryMaxDelayMs: 20 },
    log: createEngineLog(() => async (entry) => void logged.push(entry)),
  });
  impl = { ...provider, remove: (id) => provider.delete(id) };
  await impl.configure({ config: { get: (key) => settings.get(key) } });
});

afterEach(async () => {
  mockAgent.assertNoPendingInterceptors();
  await mockAgent.close();
});

const api = () => mockAgent.get(ORIGIN);
const requests = () => (mockAgent.getCallHistory()?.calls() ?? []).map((c) => `${c.method} ${c.path.split("?")[0]}`);
const inputs = async (news: Record<string, unknown>) => (await impl.check({}, { ...news, __provider: "shim" })).inputs;
const notReady = (name: string, extra: Partial<Live> = {}) => agentJson({ name, ready: false, ...extra });
const failureOf = (p: Promise<unknown>) => p.then(() => expect.unreachable("expected a rejection"), (e: unknown) => e);

describe("create", () => {
  it("POSTs the body without provider settings, polls until ready, returns the service's answer as outputs", async () => {
    let sent: unknown;
    api().intercept({ path: "/v1/agents", method: "POST", headers: { authorization: `Bearer ${API_KEY}` } }).reply(200, (opts) => {
      sent = JSON.parse(String(opts.body));
      return notReady("voice-bot");
    }, JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, notReady("voice-bot"), JSON_REPLY);
    const live = agentJson({ name: "voice-bot" });
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, live, JSON_REPLY);
    const { id, outs } = await impl.create(
      await inputs({ serviceName: "voice-bot", image: "bot:1", autoScaling: { minAgents: 1, maxAgents: 2 }, readyTimeoutSeconds: 30 }),
    );
    expect(sent).toEqual({ serviceName: "voice-bot", image: "bot:1", nodeType: "arm", enableNoise: false, autoScaling: { minAgents: 1, maxAgents: 2 } });
    expect(id).toBe("voice-bot");
    expect(outs).toMatchObject({ name: "voice-bot", ready: true, readyTimeoutSeconds: 30, waitForReady: true });
    expect(outs["manifest"]).toEqual(live.deployment.manifest);
    expect(outs["deployment"]).toEqual({ id: "dep-1", serviceId: "svc-1", createdAt: "2024-05-01T10:00:00Z", updatedAt: "2024-05-01T10:00:00Z" });
    expect(outs["image"]).toBe(live.deployment.manifest.spec["image"]);
  });

  it("with waitForReady false: one POST, no polling", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(200, notReady("quick-bot"), JSON_REPLY);
    const { outs } = await impl.create(await inputs({ serviceName: "quick-bot", image: "bot:1", waitForReady: false }));
    expect(outs["ready"]).toBe(false);
    expect(requests()).toEqual(["POST /v1/agents"]);
  });

  it("an answer of another reading: 201, deployment null, extra and missing optional fields", async () => {
    const bare = { name: "voice-bot", ready: false, activeDeploymentId: "dep-9", activeDeploymentReady: false, autoScaling: { minReplicas: 1, maxReplicas: 1 }, deployment: null, region: "eu" };
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(201, bare, JSON_REPLY);
    // Ready flags true but the deployment not reported yet: the wait goes on until it is there.
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, { ...bare, ready: true, activeDeploymentReady: true }, JSON_REPLY);
    const deployment = { id: "dep-9", manifest: { apiVersion: "g.example/v1", kind: "Agent", spec: { image: "bot:1", extra: { nested: true } } }, zone: "z1" };
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, { ...bare, ready: true, activeDeploymentReady: true, deployment }, JSON_REPLY);
    const { outs } = await impl.create(await inputs({ serviceName: "voice-bot", image: "bot:1" }));
    expect(outs["manifest"]).toEqual(deployment.manifest);
    expect(outs["deployment"]).toEqual({ id: "dep-9", zone: "z1" });
    expect(outs).not.toHaveProperty("createdAt");
    expect(requests().filter((r) => r === "GET /v1/agents/voice-bot")).toHaveLength(2);
  });

  it("a never-ready agent: AgentNotReadyError with id, properties, the pending mark and the newest log lines", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(200, notReady("slow-bot"), JSON_REPLY);
    api().intercept({ path: "/v1/agents/slow-bot", method: "GET" }).reply(200, notReady("slow-bot"), JSON_REPLY).persist();
    api()
      .intercept({ path: (p) => p.startsWith("/v1/agents/slow-bot/logs?"), method: "GET" })
      .reply(200, { total: { value: 2, relation: "eq" }, logs: [
        { log: "Error: crash", timestamp: "2026-11-23T00:00:02.000000002Z" },
        { log: "Starting", timestamp: "2026-11-23T00:00:01.000000001Z" },
      ] }, JSON_REPLY).persist();
    const error = await failureOf(impl.create(await inputs({ serviceName: "slow-bot", image: "bot:1", readyTimeoutSeconds: 1 })));
    expect(error).toBeInstanceOf(AgentNotReadyError);
    const e = error as AgentNotReadyError;
    expect(e.id).toBe("slow-bot");
    expect(e.properties["__provider"]).toBe("shim");
    expect(e.properties[PENDING_KEY]).toBe("create");
    expect(e.message).toMatch(/did not become ready within 1 s after create/);
    expect(e.message.indexOf("Starting")).toBeLessThan(e.message.indexOf("Error: crash"));
    expect(e.message).not.toContain(API_KEY);
  });

  it("polls ride out a GET outage after the POST was answered", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(200, notReady("voice-bot"), JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(503, "<html>bad gateway</html>").times(5);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson({ name: "voice-bot" }), JSON_REPLY);
    const { outs } = await impl.create(await inputs({ serviceName: "voice-bot", image: "bot:1", readyTimeoutSeconds: 60 }));
    expect(outs["ready"]).toBe(true);
  });

  it("a 401 after the POST was answered keeps the agent: AgentIncompleteError with its id", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(200, notReady("voice-bot"), JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(401, { error: "key revoked", code: "UNAUTHORIZED" }, JSON_REPLY);
    const error = await failureOf(impl.create(await inputs({ serviceName: "voice-bot", image: "bot:1" })));
    expect(error).toBeInstanceOf(AgentIncompleteError);
    const e = error as AgentIncompleteError;
    expect(e.id).toBe("voice-bot");
    expect(e.cause).toBeInstanceOf(AuthenticationError);
    expect(e.properties).toMatchObject({ name: "voice-bot", activeDeploymentId: "dep-1", [PENDING_KEY]: "create" });
    expect(e.message).toMatch(/the create was sent, but then failed: GET \/v1\/agents\/voice-bot failed with 401/);
  });

  it("a POST whose outcome is unknown (500, read-back failing) keeps the agent, without an answer", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(500, { error: "boom", code: "INTERNAL_SERVER_ERROR" }, JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(503, "").times(4);
    const error = await failureOf(impl.create(await inputs({ serviceName: "voice-bot", image: "bot:1" })));
    expect(error).toBeInstanceOf(AgentIncompleteError);
    expect((error as AgentIncompleteError).properties).toMatchObject({ name: "voice-bot", image: "bot:1", manifest: null, [PENDING_KEY]: "create" });
  });

  it("a 409 is a ConflictError saying the name is taken and what to do, even for an identical agent made just now; nothing else is sent", async () => {
    const conflict = { error: "taken", code: "CONFLICT" };
    const live = agentJson({ name: "voice-bot" });
    const image = live.deployment.manifest.spec["image"] as string;
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(409, conflict, JSON_REPLY);
    const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/agent-hosting:Agent::bot";
    const error = await failureOf(impl.create(await inputs({ serviceName: "voice-bot", image, __urn: urn })));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).status).toBe(409);
    expect((error as ConflictError).cause).toBeInstanceOf(ConflictError);
    const message = (error as ConflictError).message;
    expect(message).toContain('agent "voice-bot": the name is taken at the service');
    expect(message).toContain("never takes it over");
    expect(message).toContain("choose another serviceName");
    // Agent.get with its real arguments: the program's resource name and the service name.
    expect(message).toContain('Agent.get("bot", "voice-bot")');
    expect(message).toContain("pulumi import agent-hosting:index:Agent bot voice-bot");
    // The only interceptor was the POST: a GET (to compare specs) would fail with net connect disabled.
  });

  it("a 401 on the POST surfaces as AuthenticationError without the key", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(401, { error: "bad key", code: "UNAUTHORIZED" }, JSON_REPLY);
    const error = await failureOf(impl.create(await inputs({ serviceName: "voice-bot", image: "bot:1" })));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify(error) + String(error)).not.toContain(API_KEY);
  });

  it("outputs reflecting a secret input are secrets", async () => {
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(200, agentJson({ name: "voice-bot" }), JSON_REPLY);
    const { outs } = await impl.create({ ...(await inputs({ serviceName: "voice-bot", image: "bot:1" })), __secretInputs: ["image"] });
    expect(outs["manifest"]).toMatchObject({ [SIGNATURE_KEY]: SECRET_SIGNATURE });
    expect(outs["deployment"]).toMatchObject({ [SIGNATURE_KEY]: SECRET_SIGNATURE });
    expect(outs["__secretInputs"]).toEqual(["image"]);
  });
});

describe("read", () => {
  it("a 404 on refresh removes the resource (empty id)", async () => {
    api().intercept({ path: "/v1/agents/gone-bot", method: "GET" }).reply(404, { error: "nope", code: "NOT_FOUND" }, JSON_REPLY);
    expect(await impl.read("gone-bot", { serviceName: "gone-bot", image: "bot:1" })).toEqual({ id: "", props: {} });
  });

  it("rebuilds the inputs from the live manifest, keeping the provider settings", async () => {
    const live = agentJson({ name: "drift-bot", envFromSecretNames: [] });
    api().intercept({ path: "/v1/agents/drift-bot", method: "GET" }).reply(200, live, JSON_REPLY);
    const result = await impl.read("drift-bot", { serviceName: "drift-bot", image: "old:1", secretSet: "gone-set", readyTimeoutSeconds: 42 });
    expect(result.inputs).toMatchObject({ serviceName: "drift-bot", image: live.deployment.manifest.spec["image"], readyTimeoutSeconds: 42 });
    expect(result.inputs).not.toHaveProperty("secretSet");
    expect(result.props["image"]).toBe(live.deployment.manifest.spec["image"]);
  });

  it("rides out a GET outage right after a create (the wait's loop, one request a poll), telling each retry on the resource's row", async () => {
    api().intercept({ path: "/v1/agents/fresh-bot", method: "GET" }).reply(503, { error: "warming up", code: "INTERNAL_SERVER_ERROR" }, JSON_REPLY).times(4);
    api().intercept({ path: "/v1/agents/fresh-bot", method: "GET" }).reply(200, agentJson({ name: "fresh-bot" }), JSON_REPLY);
    const result = await impl.read("fresh-bot", { serviceName: "fresh-bot", image: "bot:1" });
    expect(result.id).toBe("fresh-bot");
    expect(requests()).toEqual(Array(5).fill("GET /v1/agents/fresh-bot"));
    const notes = logged.filter((e) => e.severity === "warning").map((e) => e.message);
    expect(notes).toHaveLength(4);
    expect(notes[3]).toMatch(/^agent-hosting: GET \/v1\/agents\/fresh-bot answered 503 INTERNAL_SERVER_ERROR; retry 4 in 500 ms$/);
  });

  it("Agent.get of a missing agent is an AgentNotFoundError", async () => {
    api().intercept({ path: "/v1/agents/ghost", method: "GET" }).reply(404, { error: "nope", code: "NOT_FOUND" }, JSON_REPLY);
    const error = await failureOf(impl.read("ghost", { __provider: "shim" }));
    expect(error).toBeInstanceOf(AgentNotFoundError);
    expect((error as Error).message).toMatch(/agent "ghost" does not exist at the service/);
  });
});

describe("update", () => {
  const olds = { serviceName: "voice-bot", name: "voice-bot", image: "bot:1", nodeType: "arm", enableNoise: false, autoScaling: { minReplicas: 2, maxReplicas: 5 } };

  it("sends the live scaling when autoScaling is not declared, and clears a removed secret set", async () => {
    let sent: unknown;
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson({ name: "voice-bot", minReplicas: 3, maxReplicas: 7 }), JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "POST" }).reply(200, (opts) => {
      sent = JSON.parse(String(opts.body));
      return notReady("voice-bot", { deploymentId: "dep-new" });
    }, JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson({ name: "voice-bot", deploymentId: "dep-new" }), JSON_REPLY);
    const { outs } = await impl.update("voice-bot", { ...olds, secretSet: "team-secrets" }, await inputs({ serviceName: "voice-bot", image: "bot:2" }));
    expect(sent).toEqual({ image: "bot:2", nodeType: "arm", enableNoise: false, autoScaling: { minAgents: 3, maxAgents: 7 } });
    expect(outs).toMatchObject({ activeDeploymentId: "dep-new" });
    expect(outs).not.toHaveProperty("secretSet");
  });

  it("declared scaling is sent as declared, without reading the agent first", async () => {
    let sent: Record<string, unknown> = {};
    api().intercept({ path: "/v1/agents/voice-bot", method: "POST" }).reply(200, (opts) => {
      sent = JSON.parse(String(opts.body)) as Record<string, unknown>;
      return agentJson({ name: "voice-bot" });
    }, JSON_REPLY);
    await impl.update("voice-bot", olds, await inputs({ serviceName: "voice-bot", image: "bot:1", autoScaling: { minAgents: 1, maxAgents: 4 } }));
    expect(sent["autoScaling"]).toEqual({ minAgents: 1, maxAgents: 4 });
    expect(requests()).toEqual(["POST /v1/agents/voice-bot"]);
  });

  it("a change of provider settings only sends nothing at all", async () => {
    const { outs } = await impl.update("voice-bot", { ...olds, readyTimeoutSeconds: 600 }, await inputs({ serviceName: "voice-bot", image: "bot:1", readyTimeoutSeconds: 60 }));
    expect(outs["readyTimeoutSeconds"]).toBe(60);
    expect(requests()).toEqual([]);
  });

  it("a change of drainSeconds or requiredSecrets only sends nothing at all", async () => {
    const news = await inputs({ serviceName: "voice-bot", image: "bot:1", drainSeconds: 120, requiredSecrets: [] });
    const { outs } = await impl.update("voice-bot", olds, news);
    expect(outs).toMatchObject({ drainSeconds: 120, requiredSecrets: [] });
    expect(requests()).toEqual([]);
  });

  it("a changed redeployTrigger posts the same spec again", async () => {
    let sent: unknown;
    api().intercept({ path: "/v1/agents/voice-bot", method: "POST" }).reply(200, (opts) => {
      sent = JSON.parse(String(opts.body));
      return agentJson({ name: "voice-bot", deploymentId: "dep-2" });
    }, JSON_REPLY);
    const news = await inputs({ serviceName: "voice-bot", image: "bot:1", autoScaling: { minAgents: 2, maxAgents: 5 }, redeployTrigger: "push-2" });
    const { outs } = await impl.update("voice-bot", { ...olds, redeployTrigger: "push-1" }, news);
    expect(sent).toEqual({ image: "bot:1", nodeType: "arm", enableNoise: false, autoScaling: { minAgents: 2, maxAgents: 5 } });
    expect(outs).toMatchObject({ activeDeploymentId: "dep-2", redeployTrigger: "push-2" });
  });

  it("a changed redeployTrigger that the service answers with the same deployment is reported, not hidden", async () => {
    api().intercept({ path: "/v1/agents/voice-bot", method: "POST" }).reply(200, agentJson({ name: "voice-bot", deploymentId: "dep-1" }), JSON_REPLY);
    const news = await inputs({ serviceName: "voice-bot", image: "bot:1", autoScaling: { minAgents: 2, maxAgents: 5 }, redeployTrigger: "push-2" });
    await impl.update("voice-bot", { ...olds, activeDeploymentId: "dep-1", redeployTrigger: "push-1" }, news);
    const warnings = logged.filter((e) => e.severity === "warning").map((e) => e.message);
    expect(warnings.join("\n")).toContain('agent "voice-bot": redeployTrigger changed, but the service kept deployment dep-1');
  });

  it("a create left pending by an earlier up is waited for, not sent again", async () => {
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson({ name: "voice-bot", image: "bot:1" }), JSON_REPLY);
    const pending = { ...olds, autoScaling: undefined, [PENDING_KEY]: "create" };
    const { outs } = await impl.update("voice-bot", pending, await inputs({ serviceName: "voice-bot", image: "bot:1" }));
    expect(requests()).toEqual(["GET /v1/agents/voice-bot"]);
    expect(outs).not.toHaveProperty(PENDING_KEY);
  });

  it("a pending create whose agent never appeared is posted again", async () => {
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(404, { error: "nope", code: "NOT_FOUND" }, JSON_REPLY);
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(201, agentJson({ name: "voice-bot", image: "bot:1" }), JSON_REPLY);
    const pending = { ...olds, autoScaling: undefined, [PENDING_KEY]: "create" };
    await impl.update("voice-bot", pending, await inputs({ serviceName: "voice-bot", image: "bot:1" }));
    expect(requests()).toEqual(["GET /v1/agents/voice-bot", "POST /v1/agents"]);
  });
});

describe("check: the secret sets an agent names", () => {
  const setAnswer = (...fields: string[]) => ({ secrets: fields.map((fieldName) => ({ fieldName })) });
  const check = (news: Record<string, unknown>) => impl.check({}, { serviceName: "voice-bot", image: "bot:1", __provider: "shim", ...news });

  it("looks each set up once however many agents name it; a missing set or field is a failure on the input naming it", async () => {
    api().intercept({ path: "/v1/secrets/bot-secrets", method: "GET" }).reply(200, setAnswer("DB_URL", "TOKEN"), JSON_REPLY);
    api().intercept({ path: "/v1/secrets/pull-creds", method: "GET" }).reply(404, { error: "no such set", code: "NOT_FOUND" }, JSON_REPLY);
    const outcomes = await Promise.all([
      check({ secretSet: "bot-secrets", requiredSecrets: ["TOKEN"] }),
      check({ secretSet: "bot-secrets", requiredSecrets: ["TOKEN", "OPENAI_KEY", "SIP_PASSWORD"] }),
      check({ secretSet: "bot-secrets", imagePullSecretSet: "pull-creds" }),
      check({ imagePullSecretSet: "pull-creds" }),
    ]);
    expect(outcomes.map((o) => o.failures)).toEqual([
      [],
      [{ property: "secretSet", reason: 'secret set "bot-secrets" lacks the fields OPENAI_KEY, SIP_PASSWORD that requiredSecrets names; it has DB_URL, TOKEN' }],
      [{ property: "imagePullSecretSet", reason: 'secret set "pull-creds" does not exist at the service (GET /secrets/pull-creds answered 404)' }],
      [{ property: "imagePullSecretSet", reason: 'secret set "pull-creds" does not exist at the service (GET /secrets/pull-creds answered 404)' }],
    ]);
    expect(requests().sort()).toEqual(["GET /v1/secrets/bot-secrets", "GET /v1/secrets/pull-creds"]);
  });

  it("a name unknown at preview passes and is looked up before the create's POST, which it stops", async () => {
    const unknown = await check({ secretSet: SIGNATURE_UNKNOWN, requiredSecrets: ["TOKEN"] });
    expect(unknown.failures).toEqual([]);
    expect(requests()).toEqual([]);
    api().intercept({ path: "/v1/secrets/bot-secrets", method: "GET" }).reply(200, setAnswer(), JSON_REPLY);
    const error = await failureOf(impl.create({ ...unknown.inputs, secretSet: "bot-secrets" }));
    expect((error as Error).message).toBe(
      'agent "voice-bot": nothing was sent: secretSet: secret set "bot-secrets" lacks the field TOKEN that requiredSecrets names; it has no fields',
    );
    expect(requests()).toEqual(["GET /v1/secrets/bot-secrets"]);
  });

  it("a refused key on the lookup fails the check with the error naming the key's setting", async () => {
    api().intercept({ path: "/v1/secrets/bot-secrets", method: "GET" }).reply(401, { error: "bad key", code: "UNAUTHORIZED" }, JSON_REPLY);
    const error = await failureOf(check({ secretSet: "bot-secrets" }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toBe(
      `GET /v1/secrets/bot-secrets failed with 401 UNAUTHORIZED: the service at ${BASE_URL} refused the API key taken from agent-hosting:apiKey (bad key); check that key and set the right one with \`pulumi config set --secret agent-hosting:apiKey <key>\``,
    );
  });
});

describe("delete", () => {
  const live = (count: number) => ({ ...agentJson({ name: "voice-bot" }), activeSessionCount: count });
  const reads = (...counts: number[]) => {
    for (const count of counts) api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, live(count), JSON_REPLY);
  };
  const warnings = () => logged.filter((e) => e.severity === "warning").map((e) => e.message);

  it("reads the agent, then DELETEs it; a 204 without a body and a 404 (on the read or the delete) count as deleted", async () => {
    reads(0);
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(204, "");
    await expect(impl.remove("voice-bot")).resolves.toBeUndefined();
    reads(0);
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(404, { error: "nope", code: "NOT_FOUND" }, JSON_REPLY);
    await expect(impl.remove("voice-bot")).resolves.toBeUndefined();
    api().intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(404, { error: "nope", code: "NOT_FOUND" }, JSON_REPLY);
    await expect(impl.remove("voice-bot")).resolves.toBeUndefined();
    expect(requests()).toEqual(["GET /v1/agents/voice-bot", "DELETE /v1/agents/voice-bot", "GET /v1/agents/voice-bot", "DELETE /v1/agents/voice-bot", "GET /v1/agents/voice-bot"]);
    expect(warnings()).toEqual([]);
  });

  it("a 500 on delete is retried", async () => {
    reads(0);
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(500, { error: "boom", code: "INTERNAL_SERVER_ERROR" }, JSON_REPLY);
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(200, { status: "OK" }, JSON_REPLY);
    await expect(impl.remove("voice-bot")).resolves.toBeUndefined();
  });

  it("with drainSeconds 0 (a state from before it too), deletes at once and warns how many live sessions it cut", async () => {
    reads(2);
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(200, { status: "OK" }, JSON_REPLY);
    await impl.delete("voice-bot", { serviceName: "voice-bot", image: "bot:1", __urn: "urn:bot" });
    expect(requests()).toEqual(["GET /v1/agents/voice-bot", "DELETE /v1/agents/voice-bot"]);
    expect(warnings()).toEqual(['agent-hosting: agent "voice-bot": 2 live sessions were cut by the delete (drainSeconds 0); set drainSeconds to let them end first']);
    expect(logged.every((e) => e.urn === "urn:bot")).toBe(true);
  });

  it("with drainSeconds, waits for the live sessions to end (a status line giving the count), then deletes without a warning", async () => {
    reads(1, 0);
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(200, { status: "OK" }, JSON_REPLY);
    await impl.delete("voice-bot", { serviceName: "voice-bot", image: "bot:1", drainSeconds: 30, __urn: "urn:bot" });
    expect(requests()).toEqual(["GET /v1/agents/voice-bot", "GET /v1/agents/voice-bot", "DELETE /v1/agents/voice-bot"]);
    expect(logged.map((e) => [e.severity, e.ephemeral, e.message])).toEqual([
      ["info", true, 'agent "voice-bot": 1 live session; waiting for them to end before the delete, 0 s of drainSeconds 30 s'],
    ]);
  });

  it("sessions that outlast drainSeconds are cut, and the warning says so", async () => {
    reads(3, 3);
    api().intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(200, { status: "OK" }, JSON_REPLY);
    await impl.delete("voice-bot", { serviceName: "voice-bot", image: "bot:1", drainSeconds: 1 });
    expect(requests()).toEqual(["GET /v1/agents/voice-bot", "GET /v1/agents/voice-bot", "DELETE /v1/agents/voice-bot"]);
    expect(warnings()).toEqual(['agent-hosting: agent "voice-bot": 3 live sessions were cut by the delete (they outlasted drainSeconds 1 s)']);
  });
});

describe("cancel", () => {
  it("ends the wait and its polls at once: the create answers with the agent kept in the state, pending", async () => {
    const log = createEngineLog(() => async (entry) => void logged.push(entry));
    const config = { get: (key: string) => settings.get(key) };
    const provider = createProviderCore({ registry: REGISTRY, config, log, host: "dynamic", client: { dispatcher: mockAgent, retryBaseDelayMs: 5 } });
    api().intercept({ path: "/v1/agents", method: "POST" }).reply(200, notReady("slow-bot"), JSON_REPLY);
    api().intercept({ path: "/v1/agents/slow-bot", method: "GET" }).reply(200, notReady("slow-bot"), JSON_REPLY).persist();
    const agent = provider.resource(DYNAMIC_AGENT_TYPE);
    const checked = await inputs({ serviceName: "slow-bot", image: "bot:1", readyTimeoutSeconds: 600 });
    const creating = provider.talking("", { waiting: true }, (call) => agent.verbs.create({ ...call, inputs: checked, marks: { secretInputs: [] } }));
    while (!requests().includes("GET /v1/agents/slow-bot")) await new Promise((r) => setTimeout(r, 5));
    expect(provider.busy()).toBe(1);
    provider.cancel("the engine's Cancel call");
    const error = await failureOf(creating);
    expect(error).toBeInstanceOf(AgentIncompleteError);
    expect((error as AgentIncompleteError).properties[PENDING_KEY]).toBe("create");
    expect((error as Error).message).toContain("the create was sent, but then failed: the provider process received the engine's Cancel call");
    const sent = requests().length;
    await new Promise((r) => setTimeout(r, 300));
    expect(requests()).toHaveLength(sent);
    expect(provider.busy()).toBe(0);
  });
});
