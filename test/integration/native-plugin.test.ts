/**
 * The native plugin through its public interface: the built bin started as
 * the engine starts it (a child process that prints its port), called over
 * gRPC with Pulumi's own client stubs, against the real emulator.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import {
  CheckRequest,
  CheckResponse,
  ConfigureRequest,
  ConfigureResponse,
  CreateRequest,
  CreateResponse,
  DeleteRequest,
  DiffRequest,
  DiffResponse,
  ErrorResourceInitFailed,
  GetSchemaRequest,
  GetSchemaResponse,
  InvokeRequest,
  InvokeResponse,
  PropertyDiff,
  ReadRequest,
  ReadResponse,
} from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../src/emulator";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { check as checkOver, configure, providerClient, rpc, struct } from "../support/grpc-provider-client";
import { logEntry, neverReadyDeploymentLines } from "../support/emulator-log-lines";

const root = join(__dirname, "..", "..");
const API_KEY = "native-plugin-KEY-5d1e9a";
const URN = "urn:pulumi:dev::proj::agent-hosting:index:Agent::bot";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

let emulator: Emu;
let plugin: ChildProcessWithoutNullStreams;
let client: ResourceProviderClient;
let pluginStderr = "";

function check(news: Record<string, unknown>) {
  return checkOver(client, URN, news);
}

async function create(props: Record<string, unknown>) {
  const checked = await check(props);
  expect(checked.getFailuresList()).toEqual([]);
  const req = new CreateRequest();
  req.setUrn(URN);
  req.setProperties(checked.getInputs());
  return rpc<CreateResponse>((cb) => client.create(req, cb));
}

beforeAll(async () => {
  emulator = await startEmu({ apiKey: API_KEY, readyAfterMs: 200, secretSets: { "voice-secrets": ["TOKEN"] } });
  plugin = spawn(process.execPath, [join(root, "dist/hosts/grpc/plugin-bin.js")], { env: { ...process.env, AGENT_HOSTING_API_KEY: "", AGENT_HOSTING_BASE_URL: "" } });
  plugin.stderr.on("data", (d: Buffer) => (pluginStderr += d.toString()));
  const port = await new Promise<string>((resolve, reject) => {
    plugin.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
    plugin.once("exit", (code) => reject(new Error(`plugin exited ${code}: ${pluginStderr}`)));
  });
  expect(port).toMatch(/^\d+$/);
  client = providerClient(port);
  await configure(client, { apiKey: { ...SECRET, value: API_KEY }, baseUrl: emulator.url });
});

afterAll(async () => {
  client?.close();
  plugin?.kill();
  await emulator?.close();
});

describe("pulumi-resource-agent-hosting over gRPC", () => {
  it("reports its version and serves the committed schema", async () => {
    const info = await rpc<PluginInfo>((cb) => client.getPluginInfo(new Empty(), cb));
    expect(info.getVersion()).toBe(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version);
    const schema = await rpc<GetSchemaResponse>((cb) => client.getSchema(new GetSchemaRequest(), cb));
    expect(schema.getSchema()).toBe(readFileSync(join(root, "schema.json"), "utf8"));
  });

  it("run by a person, --help explains the plugin and its settings and --version prints its version, both exiting 0", () => {
    const bin = join(root, "dist/hosts/grpc/plugin-bin.js");
    const help = execFileSync(process.execPath, [bin, "--help"], { encoding: "utf8" });
    expect(help).toMatch(/^usage: pulumi-resource-agent-hosting/);
    for (const setting of ["agent-hosting:apiKey", "agent-hosting:baseUrl", "agent-hosting:allowInsecureHttp", "--version"]) expect(help).toContain(setting);
    const version = execFileSync(process.execPath, [bin, "--version"], { encoding: "utf8" });
    expect(version).toBe(`${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version}\n`);
  });

  it("CheckConfig names a bad baseUrl and a setting it does not have", async () => {
    const req = new CheckRequest();
    req.setUrn("urn:pulumi:dev::proj::pulumi:providers:agent-hosting::p");
    req.setOlds(struct({}));
    req.setNews(struct({ baseUrl: "ftp://example.com", apikey: "x", version: "0.1.0" }));
    const res = await rpc<CheckResponse>((cb) => client.checkConfig(req, cb));
    const failures = res.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    expect(failures.sort()).toEqual(["apikey: \"apikey\" is not a setting of the agent-hosting provider; the settings are apiKey, baseUrl, allowInsecureHttp, registryAuth and pinImageDigests", 'baseUrl: must use http or https, got "ftp"']);
  });

  it("CheckConfig names a malformed registryAuth entry without repeating its values, and a pinImageDigests that is no flag", async () => {
    const req = new CheckRequest();
    req.setUrn("urn:pulumi:dev::proj::pulumi:providers:agent-hosting::p");
    req.setOlds(struct({}));
    req.setNews(struct({ registryAuth: '[{"server": "r.example.com", "username": "SECRET-user-9d"}]', pinImageDigests: "sometimes" }));
    const res = await rpc<CheckResponse>((cb) => client.checkConfig(req, cb));
    const failures = res.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    expect(failures).toHaveLength(2);
    expect(failures).toContain("pinImageDigests: pinImageDigests must be true or false");
    expect(failures.find((f) => f.startsWith("registryAuth: "))).toMatch(/^registryAuth: entry 0 has no password \(a non-empty string\); expected a list such as/);
    expect(failures.join("\n")).not.toContain("SECRET-user-9d");
  });

  it("Check applies the defaults and names each bad field with its rule", async () => {
    const ok = await check({ serviceName: "bot", image: "registry.example.com/bot:1" });
    expect(ok.getFailuresList()).toEqual([]);
    expect(ok.getInputs()?.toJavaScript()).toMatchObject({ nodeType: "arm", enableNoise: false, waitForReady: true, readyTimeoutSeconds: 600 });
    const bad = await check({ serviceName: "Bad_Name", image: "bot" });
    const failures = bad.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
    expect(failures).toEqual(expect.arrayContaining([["serviceName", expect.stringMatching(/must match/)], ["image", expect.stringMatching(/tag/)]]));
  });

  it("Check of 400 agents that share a secret set makes one GET of it; a missing field or set fails the agent naming the set's fields", async () => {
    const control = new EmulatorControl(emulator.baseUrl);
    await control.seedSecretSet("shared-secrets", ["DB_URL", "TOKEN"]);
    const before = (await control.requests()).requests.length;
    const agents = Array.from({ length: 400 }, (_, i) => ({ serviceName: `bot-${i}`, image: "registry.example.com/bot:1", secretSet: "shared-secrets", requiredSecrets: ["TOKEN"] }));
    const checked = await Promise.all(agents.map((news) => check(news)));
    expect(checked.flatMap((c) => c.getFailuresList())).toEqual([]);
    const lacking = await check({ ...agents[0], requiredSecrets: ["TOKEN", "OPENAI_KEY"] });
    const missing = await check({ ...agents[0], secretSet: "no-such-set" });
    const failures = (c: CheckResponse) => c.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    expect(failures(lacking)).toEqual(['secretSet: secret set "shared-secrets" lacks the field OPENAI_KEY that requiredSecrets names; it has DB_URL, TOKEN']);
    expect(failures(missing)).toEqual(['secretSet: secret set "no-such-set" does not exist at the service (GET /secrets/no-such-set answered 404)']);
    const made = (await control.requests()).requests.slice(before).filter((r) => !r.path.startsWith("/_emulator"));
    expect(made.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(["GET /v1/secrets/shared-secrets 200", "GET /v1/secrets/no-such-set 404"]);
  });

  it("Diff answers a detailed diff: serviceName replaces, image updates in place", async () => {
    const olds = { serviceName: "bot", image: "registry.example.com/bot:1", nodeType: "arm", enableNoise: false, waitForReady: true, readyTimeoutSeconds: 600 };
    const diff = async (news: Record<string, unknown>) => {
      const req = new DiffRequest();
      req.setId("bot");
      req.setUrn(URN);
      req.setOlds(struct(olds));
      req.setNews(struct({ ...olds, ...news }));
      return rpc<DiffResponse>((cb) => client.diff(req, cb));
    };
    const same = await diff({});
    expect(same.getChanges()).toBe(DiffResponse.DiffChanges.DIFF_NONE);
    const renamed = await diff({ serviceName: "bot-2" });
    expect(renamed.getChanges()).toBe(DiffResponse.DiffChanges.DIFF_SOME);
    expect(renamed.getReplacesList()).toEqual(["serviceName"]);
    expect(renamed.getDetaileddiffMap().get("serviceName")?.getKind()).toBe(PropertyDiff.Kind.UPDATE_REPLACE);
    const reimaged = await diff({ image: "registry.example.com/bot:2" });
    expect(reimaged.getReplacesList()).toEqual([]);
    expect(reimaged.getDetaileddiffMap().get("image")?.getKind()).toBe(PropertyDiff.Kind.UPDATE);
    expect(reimaged.getDetaileddiffMap().get("image")?.getInputdiff()).toBe(true);
  });

  it("Create makes the agent; Read with only an id (an import) rebuilds its inputs; Delete removes it", async () => {
    const created = await create({ serviceName: "grpc-bot", image: "registry.example.com/bot:1", enableNoise: true });
    expect(created.getId()).toBe("grpc-bot");
    expect(created.getProperties()?.toJavaScript()).toMatchObject({ ready: true, manifest: { spec: { image: "registry.example.com/bot:1" } } });

    const read = new ReadRequest();
    read.setId("grpc-bot");
    read.setUrn(URN);
    const imported = await rpc<ReadResponse>((cb) => client.read(read, cb));
    expect(imported.getId()).toBe("grpc-bot");
    expect(imported.getInputs()?.toJavaScript()).toMatchObject({ serviceName: "grpc-bot", image: "registry.example.com/bot:1", enableNoise: true });

    const del = new DeleteRequest();
    del.setId("grpc-bot");
    del.setUrn(URN);
    del.setProperties(created.getProperties());
    await rpc<Empty>((cb) => client.delete(del, cb));
    const gone = new ReadRequest();
    gone.setId("grpc-bot");
    gone.setUrn(URN);
    gone.setProperties(created.getProperties());
    expect((await rpc<ReadResponse>((cb) => client.read(gone, cb))).getId()).toBe(""); // deleted outside the stack: dropped from state
  });

  it("a secret input stays secret in its output and in the outputs that reflect it", async () => {
    const created = await create({ serviceName: "secret-bot", image: { ...SECRET, value: "registry.example.com/private:7" } });
    const outs = created.getProperties()?.toJavaScript() as Record<string, unknown>;
    expect(outs["image"]).toEqual({ ...SECRET, value: "registry.example.com/private:7" });
    expect(outs["manifest"]).toMatchObject({ ...SECRET, value: { spec: { image: "registry.example.com/private:7" } } });
    expect(outs["serviceName"]).toBe("secret-bot");
    const del = new DeleteRequest();
    del.setId("secret-bot");
    del.setUrn(URN);
    await rpc<Empty>((cb) => client.delete(del, cb));
  });

  it("an agent that never becomes ready fails Create with ErrorResourceInitFailed, so the engine keeps it in state", async () => {
    const error = await create({ serviceName: "never-ready", image: "registry.example.com/bot:fail", readyTimeoutSeconds: 1 }).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    expect(error?.details).toMatch(/agent "never-ready" did not become ready within 1 s after create/);
    const bytes = error?.metadata.get("grpc-status-details-bin")[0];
    expect(bytes).toBeInstanceOf(Buffer);
    const status = Status.deserializeBinary(new Uint8Array(bytes as Buffer));
    const detail = status.getDetailsList()[0]?.unpack(ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
    expect(detail?.getId()).toBe("never-ready");
    expect(detail?.getProperties()?.toJavaScript()).toMatchObject({ serviceName: "never-ready", ready: false });
    expect(JSON.stringify(detail?.getProperties()?.toJavaScript())).not.toContain("__provider");
  });

  it("the engine's customTimeouts ends the readiness wait when it comes before readyTimeoutSeconds", async () => {
    const checked = await check({ serviceName: "engine-timeout", image: "registry.example.com/bot:fail", readyTimeoutSeconds: 600 });
    const req = new CreateRequest();
    req.setUrn(URN);
    req.setProperties(checked.getInputs());
    req.setTimeout(1);
    const error = await rpc<CreateResponse>((cb) => client.create(req, cb)).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    expect(error?.details).toMatch(/agent "engine-timeout" did not become ready within 1 s after create/);
    expect(error?.details).toContain("The wait ended at the engine's customTimeouts.create (1 s), before readyTimeoutSeconds (600 s).");
  });

  it("the engine's customTimeouts.delete ends a delete whose answer does not come in time, naming the limit", async () => {
    await create({ serviceName: "slow-delete", image: "registry.example.com/bot:1" });
    await new EmulatorControl(emulator.baseUrl).injectFault({ method: "DELETE", path: "/v1/agents/slow-delete", kind: "delay", delayMs: 3_000 });
    const del = new DeleteRequest();
    del.setId("slow-delete");
    del.setUrn(URN);
    del.setTimeout(1);
    const error = await rpc<Empty>((cb) => client.delete(del, cb)).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    expect(error?.details).toContain("the engine's customTimeouts.delete (1 s) ended the delete's request");
  });

  it("Invoke answers getSecretSet and getAgentLogs, and names a bad argument", async () => {
    const invoke = (tok: string, args: Record<string, unknown>) => {
      const req = new InvokeRequest();
      req.setTok(tok);
      req.setArgs(struct(args));
      return rpc<InvokeResponse>((cb) => client.invoke(req, cb));
    };
    const set = await invoke("agent-hosting:index:getSecretSet", { name: "voice-secrets" });
    expect(set.getReturn()?.toJavaScript()).toEqual({ name: "voice-secrets", fieldNames: ["TOKEN"] });
    const bad = await invoke("agent-hosting:index:getSecretSet", { name: "x" });
    expect(bad.getFailuresList().map((f) => f.getProperty())).toEqual(["name"]);
    // The agent the never-ready create above left: its one deployment wrote six lines; the newest five come first.
    const neverReady = (await new EmulatorControl(emulator.baseUrl).listAgents()).agents.find((a) => a.name === "never-ready");
    const lines = neverReadyDeploymentLines({ deploymentId: neverReady?.activeDeploymentId ?? "", image: "registry.example.com/bot:fail" });
    const logs = await invoke("agent-hosting:index:getAgentLogs", { agentName: "never-ready", limit: 5 });
    expect(logs.getReturn()?.toJavaScript()).toEqual({ total: { value: 6, relation: "eq" }, logs: lines.slice(1).reverse().map(logEntry) });
    const badLogs = await invoke("agent-hosting:index:getAgentLogs", { agentName: "never-ready", limit: 5000 });
    expect(badLogs.getFailuresList().map((f) => f.getProperty())).toEqual(["limit"]);
  });

  it("without apiKey and baseUrl in its configuration, the plugin falls back to the environment", async () => {
    const env = { ...process.env, AGENT_HOSTING_API_KEY: API_KEY, AGENT_HOSTING_BASE_URL: emulator.url };
    const other = spawn(process.execPath, [join(root, "dist/hosts/grpc/plugin-bin.js")], { env });
    try {
      const port = await new Promise<string>((resolve) => other.stdout.once("data", (d: Buffer) => resolve(d.toString().trim())));
      const second = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      const req = new ConfigureRequest();
      req.setArgs(struct({ version: "0.1.0" }));
      await rpc<ConfigureResponse>((cb) => second.configure(req, cb));
      const invoke = new InvokeRequest();
      invoke.setTok("agent-hosting:index:getSecretSet");
      invoke.setArgs(struct({ name: "voice-secrets" }));
      const answer = await rpc<InvokeResponse>((cb) => second.invoke(invoke, cb));
      expect(answer.getReturn()?.toJavaScript()).toEqual({ name: "voice-secrets", fieldNames: ["TOKEN"] });
      second.close();
    } finally {
      other.kill();
    }
  });

  it("the engine's Cancel ends a readiness wait at once, answering with the agent kept in state, and stops its polling", async () => {
    const other = spawn(process.execPath, [join(root, "dist/hosts/grpc/plugin-bin.js")], { env: { ...process.env, AGENT_HOSTING_API_KEY: API_KEY, AGENT_HOSTING_BASE_URL: emulator.url } });
    try {
      const port = await new Promise<string>((resolve) => other.stdout.once("data", (d: Buffer) => resolve(d.toString().trim())));
      const second = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      await rpc<ConfigureResponse>((cb) => second.configure(new ConfigureRequest().setArgs(struct({})), cb));
      const req = new CreateRequest();
      req.setUrn(URN);
      req.setProperties(struct({ serviceName: "cancelled", image: "registry.example.com/bot:fail", nodeType: "arm", enableNoise: false, waitForReady: true, readyTimeoutSeconds: 600 }));
      const creating = rpc<CreateResponse>((cb) => second.create(req, cb)).then(() => undefined, (e: grpc.ServiceError) => e);
      // The wait has begun once the plugin polls the agent after creating it.
      const control = new EmulatorControl(emulator.baseUrl);
      const polled = async () => (await control.requests()).requests.some((r) => r.method === "GET" && r.path.endsWith("/agents/cancelled"));
      while (!(await polled())) await new Promise((r) => setTimeout(r, 50));
      await rpc<Empty>((cb) => second.cancel(new Empty(), cb));
      const error = await creating;
      expect(error?.details).toMatch(/Cancel/);
      const bytes = error?.metadata.get("grpc-status-details-bin")[0] as Buffer;
      const detail = Status.deserializeBinary(new Uint8Array(bytes)).getDetailsList()[0]?.unpack(ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
      expect(detail?.getId()).toBe("cancelled");
      // The wait's polling stopped with it (the plugin process lives on).
      const polls = async () => (await control.requests()).requests.filter((r) => r.method === "GET" && r.path.endsWith("/agents/cancelled")).length;
      const atCancel = await polls();
      await new Promise((r) => setTimeout(r, 2_500));
      expect(await polls()).toBe(atCancel);
      expect(other.exitCode).toBeNull();
      second.close();
    } finally {
      other.kill();
    }
  });

  it("a wrong key fails with the service's answer and never shows the key", async () => {
    await configure(client, { apiKey: { ...SECRET, value: "wrong-KEY-0000" }, baseUrl: emulator.url });
    try {
      const read = new ReadRequest();
      read.setId("never-ready");
      read.setUrn(URN);
      const error = await rpc<ReadResponse>((cb) => client.read(read, cb)).then(() => undefined, (e: grpc.ServiceError) => e);
      expect(error?.details).toMatch(/401|unauthori[sz]ed/i);
      expect(error?.details).not.toContain("wrong-KEY-0000");
      expect(pluginStderr).not.toContain("wrong-KEY-0000");
      expect(pluginStderr).not.toContain(API_KEY);
    } finally {
      await configure(client, { apiKey: { ...SECRET, value: API_KEY }, baseUrl: emulator.url });
    }
  });
});
