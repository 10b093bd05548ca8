/**
 * Every /v1 endpoint of the emulator on its success path, through raw fetch
 * and through the project's client: shapes (zod schemas of the client),
 * the manifest echoing the request, readiness, `fail` images, update
 * semantics and delete.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentHostingClient } from "../../src/client/client";
import { NotFoundError } from "../../src/client/errors";
import { agentSchema, deleteResultSchema, logResultSchema, secretSetSchema, type Agent } from "../../src/client/schemas";
import { READY_AFTER_MS, fullBody, sleep, startEmu, toNs, waitFor, type Emu } from "./support/emulator-kit";

let emu: Emu;
let client: AgentHostingClient;

beforeAll(async () => {
  emu = await startEmu({ secretSets: { "voice-secrets": ["A", "B"], "pull.creds": ["DOCKER_CONFIG"] } });
  client = emu.client();
});
afterAll(async () => emu?.close());

const AGENT_KEYS = [
  "activeDeploymentId",
  "activeDeploymentReady",
  "activeSessionCount",
  "autoScaling",
  "createdAt",
  "deployment",
  "name",
  "ready",
  "updatedAt",
];

async function logLines(name: string): Promise<string[]> {
  const r = await emu.raw("GET", `/v1/agents/${name}/logs?order=asc&limit=1000`);
  expect(r.status).toBe(200);
  return (logResultSchema.parse(r.json).logs as { log: string }[]).map((e) => e.log);
}

describe("POST /v1/agents", () => {
  it("creates an agent that is not ready yet, with a manifest echoing the request", async () => {
    const r = await emu.raw("POST", "/v1/agents", {
      json: fullBody("echo-bot", { imagePullSecretSet: "pull.creds" }),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    const agent = agentSchema.parse(r.json);
    expect(Object.keys(r.json).sort()).toEqual(AGENT_KEYS);
    expect(agent.name).toBe("echo-bot");
    expect(agent.ready).toBe(false);
    expect(agent.activeDeploymentReady).toBe(false);
    expect(agent.activeSessionCount).toBe(0);
    expect(agent.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 7 });
    expect(Number.isNaN(Date.parse(agent.createdAt))).toBe(false);
    expect(Math.abs(Date.parse(agent.createdAt) - Date.now())).toBeLessThan(5_000);
    const deployment = agent.deployment;
    expect(deployment).not.toBeNull();
    expect(deployment?.id).toBe(agent.activeDeploymentId);
    expect(deployment?.serviceId).toEqual(expect.any(String));
    const manifest = deployment?.manifest;
    expect(manifest?.apiVersion).toMatch(/^[a-z0-9.-]+\/v1$/);
    expect(manifest?.kind).toEqual(expect.any(String));
    expect(manifest?.metadata.name).toBe("echo-bot");
    expect(manifest?.metadata.namespace).toMatch(/^\S+$/);
    expect(manifest?.spec).toMatchObject({
      platformNodeType: "arm",
      image: "registry.example.com/team/voice-bot:1.4.2",
      autoScaling: { minReplicas: 2, maxReplicas: 7 },
      envFromSecretNames: ["voice-secrets"],
      noiseModels: { enabled: true },
      clusterLocal: expect.any(Boolean),
    });
  });

  it("applies the defaults of the omitted optional fields", async () => {
    const r = await emu.raw("POST", "/v1/agents", { json: { serviceName: "minimal-bot", image: "bot:1" } });
    expect(r.status).toBe(200);
    const agent = agentSchema.parse(r.json);
    expect(agent.deployment?.manifest.spec.platformNodeType).toBe("arm");
    expect(agent.deployment?.manifest.spec.noiseModels.enabled).toBe(false);
    expect(agent.deployment?.manifest.spec.envFromSecretNames).toEqual([]);
    expect(agent.autoScaling.minReplicas).toBeLessThanOrEqual(agent.autoScaling.maxReplicas);
    expect(agent.deployment?.manifest.spec.autoScaling).toEqual(agent.autoScaling);
  });

  it("accepts an image pinned by digest and a minAgents of 0", async () => {
    const image = `registry.example.com/bot@sha256:${"ab".repeat(32)}`;
    const created = await client.createAgent({ serviceName: "digest-bot", image, autoScaling: { minAgents: 0, maxAgents: 1 } });
    expect(created.deployment?.manifest.spec.image).toBe(image);
    expect(created.autoScaling).toEqual({ minReplicas: 0, maxReplicas: 1 });
  });

  it("gives each agent its own deployment and service ids", async () => {
    const a = await client.createAgent({ serviceName: "ids-a", image: "bot:1" });
    const b = await client.createAgent({ serviceName: "ids-b", image: "bot:1" });
    expect(a.activeDeploymentId).not.toBe(b.activeDeploymentId);
    expect(a.deployment?.serviceId).not.toBe(b.deployment?.serviceId);
  });
});

describe("GET /v1/agents/{name}", () => {
  it("reads back what create answered (raw fetch and client agree)", async () => {
    const created = await client.createAgent({ serviceName: "read-bot", image: "bot:2", enableNoise: true, secretSet: "voice-secrets" });
    const r = await emu.raw("GET", "/v1/agents/read-bot");
    expect(r.status).toBe(200);
    const read = agentSchema.parse(r.json);
    const viaClient = await client.getAgent("read-bot");
    for (const agent of [read, viaClient]) {
      expect(agent.name).toBe("read-bot");
      expect(agent.activeDeploymentId).toBe(created.activeDeploymentId);
      expect(agent.createdAt).toBe(created.createdAt);
      expect(agent.deployment?.serviceId).toBe(created.deployment?.serviceId);
      expect(agent.deployment?.manifest).toEqual(created.deployment?.manifest);
    }
  });
});

describe("readiness", () => {
  it("turns ready about readyAfterMs after create and writes a ready line to the logs", async () => {
    const started = Date.now();
    const created = await client.createAgent({ serviceName: "ready-bot", image: "bot:3" });
    expect(created.ready).toBe(false);
    const early = await client.getAgent("ready-bot");
    expect(early.ready).toBe(false);
    expect(early.activeDeploymentReady).toBe(false);
    expect((await logLines("ready-bot")).some((l) => /ready/i.test(l))).toBe(false);

    let readyAgent: Agent | undefined;
    await waitFor("ready-bot ready", async () => {
      readyAgent = await client.getAgent("ready-bot");
      return readyAgent.ready;
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(READY_AFTER_MS - 5);
    expect(elapsed).toBeLessThan(READY_AFTER_MS + 2_000);
    expect(readyAgent?.activeDeploymentReady).toBe(true);
    expect(readyAgent?.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(readyAgent?.activeSessionCount).toBe(0);

    const lines = await logLines("ready-bot");
    const readyLines = lines.filter((l) => /ready/i.test(l));
    expect(readyLines).toHaveLength(1);
    expect(readyLines[0]).toContain(created.activeDeploymentId);
    // Reading again does not write it twice.
    await client.getAgent("ready-bot");
    expect((await logLines("ready-bot")).filter((l) => /ready/i.test(l))).toHaveLength(1);
  });

  it("never readies an image tagged `fail`, whose logs carry error lines", async () => {
    const created = await client.createAgent({ serviceName: "fail-bot", image: "registry.example.com/team/bot:fail" });
    expect(created.ready).toBe(false);
    await sleep(READY_AFTER_MS * 2 + 50);
    const later = await client.getAgent("fail-bot");
    expect(later.ready).toBe(false);
    expect(later.activeDeploymentReady).toBe(false);
    const lines = await logLines("fail-bot");
    expect(lines.some((l) => /error/i.test(l))).toBe(true);
    expect(lines.some((l) => /ready/i.test(l))).toBe(false);
    const errors = await client.getAgentLogs({ agentName: "fail-bot", query: "error", limit: 100 });
    expect(errors.total.value).toBeGreaterThanOrEqual(1);
    expect(errors.logs.every((e) => e.log.toLowerCase().includes("error"))).toBe(true);
  });

  it('readies an image with "fail" in its repository path but not as its tag', async () => {
    // Only the tag counts: "fail" in the repository path is an ordinary name.
    await client.createAgent({ serviceName: "not-fail-bot", image: "registry.example.com/fail/bot:1" });
    await waitFor("not-fail-bot ready", async () => (await client.getAgent("not-fail-bot")).ready);
  });
});

describe("POST /v1/agents/{name} (update)", () => {
  it("keeps the deployment on a scaling-only update and reports the new scaling", async () => {
    const created = await client.createAgent({
      serviceName: "scale-bot",
      image: "bot:1",
      secretSet: "voice-secrets",
      autoScaling: { minAgents: 1, maxAgents: 2 },
    });
    await waitFor("scale-bot ready", async () => (await client.getAgent("scale-bot")).ready);
    const r = await emu.raw("POST", "/v1/agents/scale-bot", {
      json: { image: "bot:1", secretSet: "voice-secrets", autoScaling: { minAgents: 3, maxAgents: 9 } },
    });
    expect(r.status).toBe(200);
    const updated = agentSchema.parse(r.json);
    expect(updated.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(updated.ready).toBe(true); // the running deployment stays ready
    expect(updated.autoScaling).toEqual({ minReplicas: 3, maxReplicas: 9 });
    expect(updated.deployment?.manifest.spec.autoScaling).toEqual({ minReplicas: 3, maxReplicas: 9 });
    expect(updated.createdAt).toBe(created.createdAt);
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const agents = (await emu.control.listAgents()).agents.find((a) => a.name === "scale-bot");
    expect(agents?.deployments).toHaveLength(1);
  });

  it("makes a new deployment, not ready at first, on an image change; it readies later", async () => {
    const created = await client.createAgent({ serviceName: "image-bot", image: "bot:1" });
    await waitFor("image-bot ready", async () => (await client.getAgent("image-bot")).ready);
    const updated = await client.updateAgent("image-bot", { image: "bot:2" });
    expect(updated.activeDeploymentId).not.toBe(created.activeDeploymentId);
    expect(updated.deployment?.id).toBe(updated.activeDeploymentId);
    expect(updated.ready).toBe(false);
    expect(updated.activeDeploymentReady).toBe(false);
    expect(updated.deployment?.manifest.spec.image).toBe("bot:2");
    expect(updated.name).toBe("image-bot");
    await waitFor("image-bot ready again", async () => (await client.getAgent("image-bot")).ready);
    const summary = (await emu.control.listAgents()).agents.find((a) => a.name === "image-bot");
    expect(summary?.deployments.map((d) => d.id)).toEqual([created.activeDeploymentId, updated.activeDeploymentId]);
    // Logs of both deployments stay readable, each under its own id.
    const oldLogs = await client.getAgentLogs({ agentName: "image-bot", deploymentId: created.activeDeploymentId, limit: 100 });
    const newLogs = await client.getAgentLogs({ agentName: "image-bot", deploymentId: updated.activeDeploymentId, limit: 100 });
    expect(oldLogs.total.value).toBeGreaterThan(0);
    expect(newLogs.total.value).toBeGreaterThan(0);
    expect(newLogs.logs.some((e) => e.log.includes("bot:2"))).toBe(true);
    expect(oldLogs.logs.some((e) => e.log.includes("bot:2"))).toBe(false);
  });

  it("makes a new deployment when a non-scaling field changes (enableNoise)", async () => {
    const created = await client.createAgent({ serviceName: "noise-bot", image: "bot:1" });
    const updated = await client.updateAgent("noise-bot", { image: "bot:1", enableNoise: true });
    expect(updated.activeDeploymentId).not.toBe(created.activeDeploymentId);
    expect(updated.deployment?.manifest.spec.noiseModels.enabled).toBe(true);
  });

  it("keeps the deployment when the same full body is posted again", async () => {
    const body = { image: "bot:1", autoScaling: { minAgents: 1, maxAgents: 4 } };
    const created = await client.createAgent({ serviceName: "same-bot", ...body });
    const again = await client.updateAgent("same-bot", body);
    const twice = await client.updateAgent("same-bot", body);
    expect(again.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(twice.activeDeploymentId).toBe(created.activeDeploymentId);
  });
});

describe("DELETE /v1/agents/{name}", () => {
  it('answers {"status":"OK"} and removes the agent and its logs', async () => {
    const created = await client.createAgent({ serviceName: "doomed-bot", image: "bot:1" });
    await emu.control.appendLogs("doomed-bot", 50, { prefix: "doomed line" });
    expect((await client.getAgentLogs({ agentName: "doomed-bot" })).total.value).toBeGreaterThanOrEqual(50);

    const r = await emu.raw("DELETE", "/v1/agents/doomed-bot");
    expect(r.status).toBe(200);
    expect(deleteResultSchema.parse(r.json)).toEqual({ status: "OK" });
    expect(r.json).toEqual({ status: "OK" });

    expect((await emu.raw("GET", "/v1/agents/doomed-bot")).status).toBe(404);
    const logs = await emu.raw("GET", "/v1/agents/doomed-bot/logs");
    expect(logs.status).toBe(404);
    expect(logs.json.code).toBe("NOT_FOUND");
    await expect(client.getAgentLogs({ agentName: "doomed-bot" })).rejects.toBeInstanceOf(NotFoundError);
    expect((await emu.control.listAgents()).agents.map((a) => a.name)).not.toContain("doomed-bot");

    // The name is free again, and the new agent starts with only its own lines.
    const again = await client.createAgent({ serviceName: "doomed-bot", image: "bot:1" });
    expect(again.activeDeploymentId).not.toBe(created.activeDeploymentId);
    const fresh = await client.getAgentLogs({ agentName: "doomed-bot", limit: 1000 });
    expect(fresh.logs.some((e) => e.log.includes("doomed line"))).toBe(false);
    expect(fresh.logs.some((e) => e.log.includes(created.activeDeploymentId))).toBe(false);
  });

  it("deletes through the client, then a second delete is a 404", async () => {
    await client.createAgent({ serviceName: "twice-bot", image: "bot:1" });
    await expect(client.deleteAgent("twice-bot")).resolves.toBeUndefined();
    await expect(client.deleteAgent("twice-bot")).rejects.toBeInstanceOf(NotFoundError);
    expect((await emu.raw("DELETE", "/v1/agents/twice-bot")).status).toBe(404);
  });
});

describe("GET /v1/agents/{name}/logs", () => {
  it("answers a log result with the deployment's lines, nanosecond timestamps, newest first", async () => {
    const created = await client.createAgent({ serviceName: "logs-bot", image: "bot:7" });
    const r = await emu.raw("GET", "/v1/agents/logs-bot/logs");
    expect(r.status).toBe(200);
    const result = logResultSchema.parse(r.json);
    expect(result.total.relation).toBe("eq");
    expect(result.total.value).toBe(result.logs.length);
    expect(result.logs.length).toBeGreaterThan(0);
    expect(result.logs.some((e) => e.log.includes("bot:7"))).toBe(true);
    expect(result.logs.some((e) => e.log.includes(created.activeDeploymentId))).toBe(true);
    const ns = result.logs.map((e) => toNs(e.timestamp));
    for (let i = 1; i < ns.length; i++) expect((ns[i - 1] as bigint) >= (ns[i] as bigint)).toBe(true);
    expect(await client.getAgentLogs({ agentName: "logs-bot" })).toEqual(result);
  });
});

describe("GET /v1/secrets/{set}", () => {
  it("answers the field names of a set given at start, never values", async () => {
    const r = await emu.raw("GET", "/v1/secrets/voice-secrets");
    expect(r.status).toBe(200);
    expect(secretSetSchema.parse(r.json)).toEqual({ secrets: [{ fieldName: "A" }, { fieldName: "B" }] });
    expect(r.json).toEqual({ secrets: [{ fieldName: "A" }, { fieldName: "B" }] });
    expect(await client.getSecretSet("voice-secrets")).toEqual({ secrets: [{ fieldName: "A" }, { fieldName: "B" }] });
  });

  it("answers a set seeded through the control endpoint, and a dotted name", async () => {
    await emu.control.seedSecretSet("late-set", ["TOKEN", "SIP_PASSWORD", "REGION"]);
    expect(await client.getSecretSet("late-set")).toEqual({
      secrets: [{ fieldName: "TOKEN" }, { fieldName: "SIP_PASSWORD" }, { fieldName: "REGION" }],
    });
    expect((await emu.raw("GET", "/v1/secrets/pull.creds")).json).toEqual({ secrets: [{ fieldName: "DOCKER_CONFIG" }] });
  });

  it("lets an agent load a set seeded after start", async () => {
    await emu.control.seedSecretSet("fresh-set", ["X"]);
    const agent = await client.createAgent({ serviceName: "fresh-set-bot", image: "bot:1", secretSet: "fresh-set" });
    expect(agent.deployment?.manifest.spec.envFromSecretNames).toEqual(["fresh-set"]);
  });
});
