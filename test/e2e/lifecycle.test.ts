/**
 * The real engine end to end, step by step as in a provider acceptance test:
 * create → no-op preview → update in place → scaling-only update → replace →
 * outside delete + refresh → outside change shows as drift, up restores it →
 * Agent.get adopts → destroy leaves the service empty; the state and the
 * engine's output never hold the API key.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documented } from "../support/documented-agent";
import { AgentHostingClient } from "../../src/client/client";
import { EmulatorControl, startEmulator } from "../../src/emulator";
import { e2eStack, type OpResult, type StackHandle } from "./support/stack";

const API_KEY = "e2e-SECRET-key-7f3a9c";
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let control: EmulatorControl;
let client: AgentHostingClient;
let stack: StackHandle;
const engineOutputs: string[] = [];

function agentArgs(serviceName: string, image: string, scaling = { minAgents: 1, maxAgents: 3 }) {
  return { serviceName, image, secretSet: "voice-secrets", autoScaling: scaling, enableNoise: true };
}

async function run(op: string, params?: unknown): Promise<OpResult> {
  const result = await stack.run(op, params === undefined ? {} : { params });
  engineOutputs.push(result.engineOutput, result.error ?? "");
  return result;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, readyAfterMs: 500, secretSets: { "voice-secrets": ["TOKEN", "SIP_PASSWORD"] } });
  control = new EmulatorControl(emulator.baseUrl);
  client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: API_KEY });
  stack = e2eStack("lifecycle", { baseUrl: emulator.url, apiKey: API_KEY });
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  stack?.remove();
});

describe("an Agent through the real pulumi CLI", () => {
  let firstDeployment: string;

  it("up creates the agents and exports their outputs", async () => {
    const up = await run("up", {
      agents: [
        { resource: "bot-a", args: agentArgs("bot-a", "registry.example.com/bot:1") },
        { resource: "bot-b", args: agentArgs("bot-b", "registry.example.com/bot:1") },
      ],
      secretSet: "voice-secrets",
    });
    expect(up.error).toBeUndefined();
    expect(up.changeSummary).toMatchObject({ create: 3 });
    const a = up.outputs["bot-a"] as { name: string; activeDeploymentId: string; ready: boolean; manifest: { spec: { image: string } } };
    expect(a).toMatchObject({ name: "bot-a", ready: true, manifest: { spec: { image: "registry.example.com/bot:1" } } });
    expect(up.outputs["secretFields"]).toEqual(["TOKEN", "SIP_PASSWORD"]);
    firstDeployment = a.activeDeploymentId;
    expect((await control.listAgents()).agents.map((x) => x.name).sort()).toEqual(["bot-a", "bot-b"]);
  });

  it("a second preview reports no changes", async () => {
    const preview = await run("preview", {
      agents: [
        { resource: "bot-a", args: agentArgs("bot-a", "registry.example.com/bot:1") },
        { resource: "bot-b", args: agentArgs("bot-b", "registry.example.com/bot:1") },
      ],
      secretSet: "voice-secrets",
    });
    expect(preview.error).toBeUndefined();
    expect(preview.changeSummary).toEqual({ same: 3 });
  });

  it("changing the image updates in place with a new deployment", async () => {
    const up = await run("up", {
      agents: [
        { resource: "bot-a", args: agentArgs("bot-a", "registry.example.com/bot:2") },
        { resource: "bot-b", args: agentArgs("bot-b", "registry.example.com/bot:1") },
      ],
    });
    expect(up.changeSummary).toMatchObject({ update: 1, same: 2 });
    const a = up.outputs["bot-a"] as { name: string; activeDeploymentId: string };
    expect(a.name).toBe("bot-a");
    expect(a.activeDeploymentId).not.toBe(firstDeployment);
    expect(up.engineOutput).toMatch(/image/);
    firstDeployment = a.activeDeploymentId;
  });

  it("changing the scaling updates without a new deployment", async () => {
    const up = await run("up", {
      agents: [
        { resource: "bot-a", args: agentArgs("bot-a", "registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }) },
        { resource: "bot-b", args: agentArgs("bot-b", "registry.example.com/bot:1") },
      ],
    });
    expect(up.changeSummary).toMatchObject({ update: 1, same: 2 });
    const a = up.outputs["bot-a"] as { activeDeploymentId: string; autoScaling: unknown };
    expect(a.activeDeploymentId).toBe(firstDeployment);
    expect(a.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 8 });
  });

  it("renaming serviceName replaces the agent", async () => {
    const up = await run("up", {
      agents: [
        { resource: "bot-a", args: agentArgs("bot-a", "registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }) },
        { resource: "bot-b", args: agentArgs("bot-b-renamed", "registry.example.com/bot:1") },
      ],
    });
    expect(up.changeSummary).toMatchObject({ replace: 1, same: 2 });
    expect((await control.listAgents()).agents.map((x) => x.name).sort()).toEqual(["bot-a", "bot-b-renamed"]);
  });

  it("an agent deleted behind Pulumi's back disappears on refresh", async () => {
    await client.deleteAgent("bot-b-renamed");
    const refresh = await run("refresh");
    expect(refresh.error).toBeUndefined();
    expect(refresh.changeSummary).toMatchObject({ delete: 1 });
    const preview = await run("preview", {
      agents: [
        { resource: "bot-a", args: agentArgs("bot-a", "registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }) },
        { resource: "bot-b", args: agentArgs("bot-b-renamed", "registry.example.com/bot:1") },
      ],
    });
    expect(preview.changeSummary).toMatchObject({ create: 1 });
  });

  it("an agent changed behind its back shows the drift in the next preview, and up restores it", async () => {
    await client.updateAgent("bot-a", {
      image: "registry.example.com/bot:tampered",
      secretSet: "voice-secrets",
      autoScaling: { minAgents: 2, maxAgents: 8 },
      enableNoise: true,
    });
    const declared = {
      agents: [{ resource: "bot-a", args: agentArgs("bot-a", "registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }) }],
    };
    const preview = await stack.run("preview", { params: declared, refresh: true });
    engineOutputs.push(preview.engineOutput);
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(preview.engineOutput).toMatch(/bot:tampered/);
    expect(preview.engineOutput).toMatch(/bot:2/);
    const up = await stack.run("up", { params: declared, refresh: true });
    engineOutputs.push(up.engineOutput);
    expect(up.error).toBeUndefined();
    expect(documented(await client.getAgent("bot-a")).deployment.manifest.spec.image).toBe("registry.example.com/bot:2");
    const after = await run("preview", declared);
    expect(after.changeSummary).toEqual({ same: 2 });
  });

  it("Agent.get adopts an existing agent", async () => {
    await client.createAgent({ serviceName: "made-elsewhere", image: "registry.example.com/other:5" });
    const up = await run("up", {
      agents: [{ resource: "bot-a", args: agentArgs("bot-a", "registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }) }],
      adopt: [{ resource: "adopted", serviceName: "made-elsewhere" }],
    });
    expect(up.error).toBeUndefined();
    expect(up.outputs["adopted"]).toMatchObject({ name: "made-elsewhere", image: "registry.example.com/other:5" });
    const missing = await run("preview", { adopt: [{ resource: "ghost", serviceName: "no-such-agent" }] });
    expect(missing.ok).toBe(false);
    expect(missing.error).toMatch(/agent "no-such-agent" does not exist/);
  });

  it("the state holds no API key and a small serialized provider", async () => {
    const exported = await run("export");
    const text = JSON.stringify(exported.deployment);
    expect(text).not.toContain(API_KEY);
    const resources = (exported.deployment as { deployment: { resources: { type: string; inputs?: Record<string, unknown> }[] } })
      .deployment.resources;
    const agents = resources.filter((r) => r.type === "pulumi-nodejs:dynamic/agent-hosting:Agent");
    expect(agents.length).toBeGreaterThan(0);
    for (const agent of agents) {
      expect(Buffer.byteLength(String(agent.inputs?.["__provider"]))).toBeLessThanOrEqual(4096);
    }
    for (const file of filesUnder(join(stack.workDir, ".state"))) {
      expect(readFileSync(file, "utf8").includes(API_KEY), file).toBe(false);
    }
  });

  it("destroy leaves the emulator empty (adopted agents are only read, so they stay)", async () => {
    const destroy = await run("destroy");
    expect(destroy.error).toBeUndefined();
    expect((await control.listAgents()).agents.map((a) => a.name)).toEqual(["made-elsewhere"]);
    await client.deleteAgent("made-elsewhere");
    expect((await control.listAgents()).agents).toEqual([]);
  });

  it("the engine's output never held the API key", () => {
    expect(engineOutputs.join("\n")).not.toContain(API_KEY);
  });
});
