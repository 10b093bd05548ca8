/**
 * Every provider method against the running emulator (real HTTP), called as
 * the dynamic provider host calls them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import { NotFoundError } from "../../src/client/errors";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { AgentNotReadyError } from "../../src/client/errors";
import { documented } from "../support/documented-agent";
import { dynamicProvider as impl } from "../support/dynamic-provider";

let emulator: Emu;
let client: AgentHostingClient;

beforeAll(async () => {
  emulator = await startEmu({ readyAfterMs: 300, secretSets: { "voice-secrets": ["TOKEN"] } });
  process.env["AGENT_HOSTING_API_KEY"] = emulator.apiKey;
  process.env["AGENT_HOSTING_BASE_URL"] = emulator.url;
  await impl.configure(undefined);
  client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
  delete process.env["AGENT_HOSTING_API_KEY"];
  delete process.env["AGENT_HOSTING_BASE_URL"];
});

async function checked(news: Record<string, unknown>) {
  const outcome = await impl.check({}, { ...news, __provider: "shim" });
  expect(outcome.failures).toEqual([]);
  return outcome.inputs;
}

describe("provider against the emulator", () => {
  it("create waits until the agent is ready and returns every output", async () => {
    const inputs = await checked({
      serviceName: "create-bot",
      image: "registry.example.com/bot:1",
      secretSet: "voice-secrets",
      autoScaling: { minAgents: 1, maxAgents: 3 },
      enableNoise: true,
    });
    const { id, outs } = await impl.create(inputs);
    expect(id).toBe("create-bot");
    expect(outs).toMatchObject({
      serviceName: "create-bot",
      name: "create-bot",
      image: "registry.example.com/bot:1",
      nodeType: "arm",
      enableNoise: true,
      waitForReady: true,
      readyTimeoutSeconds: 600,
      ready: true,
      activeDeploymentReady: true,
      activeSessionCount: 0,
      autoScaling: { minReplicas: 1, maxReplicas: 3 },
    });
    const manifest = documented({ ...outs, deployment: { ...(outs["deployment"] as object), manifest: outs["manifest"] } }).deployment.manifest;
    expect(manifest.spec.envFromSecretNames).toEqual(["voice-secrets"]);
    expect(manifest.spec.noiseModels.enabled).toBe(true);
    expect((outs["deployment"] as { id: string }).id).toBe(outs["activeDeploymentId"]);
  });

  it("create without waiting returns the fresh, not yet ready agent", async () => {
    const { outs } = await impl.create(await checked({ serviceName: "nowait-bot", image: "bot:1", waitForReady: false }));
    expect(outs.ready).toBe(false);
    expect(outs.activeDeploymentReady).toBe(false);
  });

  it("a never-ready image times out, keeps the agent and shows its log lines", async () => {
    const inputs = await checked({ serviceName: "broken-bot", image: "bot:fail", readyTimeoutSeconds: 1 });
    const error = await impl.create(inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentNotReadyError);
    const notReady = error as AgentNotReadyError;
    expect(notReady.message).toMatch(/agent "broken-bot" did not become ready within 1 s after create/);
    expect(notReady.message).toMatch(/ready=false/);
    expect(notReady.message).toMatch(/newest log lines:/);
    expect(notReady.message.split("\n").length).toBeGreaterThan(3);
    expect(notReady.id).toBe("broken-bot");
    expect(notReady.properties["__provider"]).toBe("shim");
    expect(notReady.message).not.toContain(emulator.apiKey);
    const live = await client.getAgent("broken-bot");
    expect(live).toMatchObject({ name: "broken-bot", ready: false });
    expect(notReady.properties["activeDeploymentId"]).toBe(live.activeDeploymentId);
  });

  it("update in place keeps the name; an image change makes a new deployment", async () => {
    const olds = (await impl.create(await checked({ serviceName: "update-bot", image: "bot:1" }))).outs;
    const news = await checked({ serviceName: "update-bot", image: "bot:2" });
    expect((await impl.diff("update-bot", { ...olds }, news)).replaces).toEqual([]);
    const { outs } = await impl.update("update-bot", { ...olds }, news);
    expect(outs.name).toBe("update-bot");
    expect(outs.image).toBe("bot:2");
    expect((outs["manifest"] as { spec: { image: string } }).spec.image).toBe("bot:2");
    expect(outs.activeDeploymentId).not.toBe(olds.activeDeploymentId);
    expect(outs.ready).toBe(true);
  });

  it("a scaling-only update keeps the deployment", async () => {
    const olds = (
      await impl.create(await checked({ serviceName: "scale-bot", image: "bot:1", autoScaling: { minAgents: 1, maxAgents: 2 } }))
    ).outs;
    const news = await checked({ serviceName: "scale-bot", image: "bot:1", autoScaling: { minAgents: 2, maxAgents: 6 } });
    const { outs } = await impl.update("scale-bot", { ...olds }, news);
    expect(outs.activeDeploymentId).toBe(olds.activeDeploymentId);
    expect(outs.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 6 });
  });

  it("a serviceName change is a replacement: the new agent is created, the old one deleted", async () => {
    const olds = (await impl.create(await checked({ serviceName: "old-name", image: "bot:1" }))).outs;
    const news = await checked({ serviceName: "new-name", image: "bot:1" });
    expect((await impl.diff("old-name", { ...olds }, news)).replaces).toEqual(["serviceName"]);
    await impl.create(news);
    await impl.remove("old-name");
    await expect(client.getAgent("old-name")).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getAgent("new-name")).resolves.toMatchObject({ name: "new-name" });
  });

  it("read after an outside delete drops the resource from state", async () => {
    const { outs } = await impl.create(await checked({ serviceName: "gone-bot", image: "bot:1" }));
    await client.deleteAgent("gone-bot");
    const result = await impl.read("gone-bot", { ...outs });
    expect(result.id).toBe("");
  });

  it("read after an outside change rebuilds the inputs so the drift shows", async () => {
    const { outs } = await impl.create(
      await checked({ serviceName: "drift-bot", image: "bot:1", autoScaling: { minAgents: 1, maxAgents: 2 } }),
    );
    await client.updateAgent("drift-bot", { image: "bot:9", autoScaling: { minAgents: 1, maxAgents: 2 } });
    const result = await impl.read("drift-bot", { ...outs });
    expect(result.inputs).toMatchObject({ serviceName: "drift-bot", image: "bot:9" });
    expect(result.props["image"]).toBe("bot:9");
    const declared = await checked({ serviceName: "drift-bot", image: "bot:1", autoScaling: { minAgents: 1, maxAgents: 2 } });
    expect((await impl.diff("drift-bot", result.props, declared)).changed).toEqual(["image"]);
  });

  it("read of an agent to adopt returns its inputs; a missing one fails clearly", async () => {
    await client.createAgent({ serviceName: "outside-bot", image: "bot:3", secretSet: "voice-secrets" });
    const adopted = await impl.read("outside-bot", { __provider: "shim" });
    expect(adopted.id).toBe("outside-bot");
    expect(adopted.inputs).toMatchObject({ serviceName: "outside-bot", image: "bot:3", secretSet: "voice-secrets" });
    await expect(impl.read("no-such-bot", { __provider: "shim" })).rejects.toThrow(/agent "no-such-bot" does not exist at the service/);
  });

  it("delete twice: the second finds nothing and counts as done", async () => {
    await impl.create(await checked({ serviceName: "delete-bot", image: "bot:1", waitForReady: false }));
    await impl.remove("delete-bot");
    await expect(impl.remove("delete-bot")).resolves.toBeUndefined();
  });

  it("without settings the error names both ways to set them", async () => {
    const key = process.env["AGENT_HOSTING_API_KEY"];
    delete process.env["AGENT_HOSTING_API_KEY"];
    // A provider configured now, as the engine configures one per process, resolves its settings at its first request.
    const unset = impl.createDynamicProvider();
    await unset.configure({ config: undefined });
    try {
      await expect(unset.create(await checked({ serviceName: "x-bot", image: "bot:1" }))).rejects.toThrow(
        /pulumi config set --secret agent-hosting:apiKey.*AGENT_HOSTING_API_KEY/,
      );
    } finally {
      process.env["AGENT_HOSTING_API_KEY"] = key;
    }
  });
});
