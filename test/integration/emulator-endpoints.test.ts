/**
 * Every /v1 endpoint of the emulator on its success path, through raw fetch
 * and through the project's client: shapes (zod schemas of the client),
 * the manifest echoing the request, defaults, readiness, `fail` and `unhealthy` images,
 * update semantics, delete, logs and secret sets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentHostingClient } from "../../src/client/client";
import { NotFoundError } from "../../src/client/errors";
import { logResultSchema, secretSetSchema } from "../../src/client/schemas";
import type { ServiceAgent as Agent } from "../../src/client/answer-types";
import { documented } from "../support/documented-agent";
import { IMAGE } from "../support/fixtures";
import { UNHEALTHY_AFTER_READY_MS } from "../../src/emulator/store";
import { AGENT_KEYS, NS_TIMESTAMP, READY_AFTER_MS, fullBody, sleep, startEmu, toNs, waitFor, type Emu } from "../support/emulator-fixture";

let emu: Emu;
let client: AgentHostingClient;

beforeAll(async () => {
  emu = await startEmu({ secretSets: { "voice-secrets": ["A", "B"], "pull.creds": ["DOCKER_CONFIG"] } });
  client = emu.newClient();
});
afterAll(async () => emu?.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function logLines(name: string, query = ""): Promise<string[]> {
  const r = await emu.raw("GET", `/v1/agents/${name}/logs?order=asc&limit=1000${query}`);
  expect(r.status).toBe(200);
  return (logResultSchema.parse(r.json).logs as { log: string }[]).map((e) => e.log);
}

const ready = (name: string) => waitFor(`${name} ready`, async () => (await client.getAgent(name)).ready);

describe("POST /v1/agents", () => {
  it("creates an agent that is not ready yet, the Agent object exactly as documented, its manifest echoing the request", async () => {
    const r = await emu.raw("POST", "/v1/agents", { json: fullBody("echo-bot", { imagePullSecretSet: "pull.creds" }) });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    const agent = documented(r.json);
    // The documented fields, and the two of the rolling rollout (the default).
    expect(Object.keys(r.json).sort()).toEqual([...AGENT_KEYS, "available", "desiredDeploymentId"].sort());
    expect(r.json.desiredDeploymentId).toBe(r.json.activeDeploymentId);
    expect(r.json.available).toBe(false);
    expect(agent.name).toBe("echo-bot");
    expect(agent.ready).toBe(false);
    expect(agent.activeDeploymentReady).toBe(false);
    expect(agent.activeSessionCount).toBe(0);
    expect(agent.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 7 });
    expect(agent.createdAt).toMatch(ISO);
    expect(agent.updatedAt).toMatch(ISO);
    expect(Math.abs(Date.parse(agent.createdAt) - Date.now())).toBeLessThan(5_000);
    const deployment = agent.deployment;
    expect(deployment?.id).toBe(agent.activeDeploymentId);
    expect(agent.activeDeploymentId).toMatch(/^dep-[0-9a-f]+$/);
    expect(deployment?.serviceId).toMatch(/^svc-[0-9a-f]{12}$/);
    expect(deployment?.createdAt).toMatch(ISO);
    expect(deployment?.updatedAt).toMatch(ISO);
    expect(r.json.deployment.manifest).toEqual({
      apiVersion: "agents.emulator.local/v1",
      kind: "Agent",
      metadata: { name: "echo-bot", namespace: "emulator-default" },
      spec: {
        platformNodeType: "arm",
        clusterLocal: false,
        image: IMAGE,
        autoScaling: { minReplicas: 2, maxReplicas: 7 },
        envFromSecretNames: ["voice-secrets"],
        noiseModels: { enabled: true },
        imagePullSecretNames: ["pull.creds"],
      },
    });
  });

  it("applies the defaults of the omitted optional fields: nodeType arm, noise off, no secret sets, autoScaling 1..1", async () => {
    const r = await emu.raw("POST", "/v1/agents", { json: { serviceName: "minimal-bot", image: "bot:1" } });
    expect(r.status).toBe(200);
    const agent = documented(r.json);
    expect(agent.autoScaling).toEqual({ minReplicas: 1, maxReplicas: 1 });
    expect(r.json.deployment.manifest.spec).toEqual({
      platformNodeType: "arm",
      clusterLocal: false,
      image: "bot:1",
      autoScaling: { minReplicas: 1, maxReplicas: 1 },
      envFromSecretNames: [],
      noiseModels: { enabled: false },
      imagePullSecretNames: [],
    });
  });

  it("accepts an image pinned by digest and a minAgents of 0", async () => {
    const image = `registry.example.com/bot@sha256:${"ab".repeat(32)}`;
    const created = await client.createAgent({ serviceName: "digest-bot", image, autoScaling: { minAgents: 0, maxAgents: 1 } });
    expect(documented(created).deployment.manifest.spec.image).toBe(image);
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
    const read = documented(r.json);
    const viaClient = await client.getAgent("read-bot");
    for (const agent of [read, viaClient]) {
      expect(agent.name).toBe("read-bot");
      expect(agent.activeDeploymentId).toBe(created.activeDeploymentId);
      expect(agent.createdAt).toBe(created.createdAt);
      expect(agent.deployment?.serviceId).toBe(created.deployment?.serviceId);
      expect(agent.deployment?.manifest).toEqual(created.deployment?.manifest);
    }
  });

  it("percent-decodes path parameters", async () => {
    await client.createAgent({ serviceName: "decoded-bot", image: "bot:1" });
    expect((await emu.raw("GET", "/v1/secrets/voice%2Dsecrets")).status).toBe(200);
    expect((await emu.raw("GET", "/v1/agents/decoded%2dbot")).status).toBe(200);
  });
});

describe("readiness", () => {
  it("turns ready readyAfterMs after create, both flags together, and writes the start-up lines and one ready line", async () => {
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
      expect(readyAgent.ready).toBe(readyAgent.activeDeploymentReady);
      return readyAgent.ready;
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(READY_AFTER_MS - 5);
    expect(elapsed).toBeLessThan(READY_AFTER_MS + 2_000);
    expect(readyAgent?.activeDeploymentReady).toBe(true);
    expect(readyAgent?.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(readyAgent?.activeSessionCount).toBe(0);

    const summary = (await emu.control.listAgents()).agents.find((a) => a.name === "ready-bot");
    expect(summary?.activeDeploymentId).toBe(created.activeDeploymentId);
    const deployment = summary?.deployments[0];
    expect(deployment?.readyAt).toBe((deployment?.createdAt ?? 0) + READY_AFTER_MS);
    expect(deployment?.image).toBe("bot:3");

    const lines = await logLines("ready-bot");
    const text = lines.join("\n");
    expect(text).toMatch(/Pulling image "bot:3"/);
    expect(text).toMatch(/Successfully pulled image "bot:3"/);
    expect(text).toMatch(/Starting container/);
    expect(text).toMatch(/accepting sessions/);
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
    const { agents } = await emu.control.listAgents();
    expect(agents.find((a) => a.name === "fail-bot")?.deployments[0]?.readyAt).toBeNull();
    const lines = await logLines("fail-bot");
    expect(lines.some((l) => /error/i.test(l))).toBe(true);
    expect(lines.some((l) => /ready/i.test(l))).toBe(false);
    expect(lines.some((l) => /accepting sessions/.test(l))).toBe(false);
    const errors = await client.getAgentLogs({ agentName: "fail-bot", query: "error", limit: 100 });
    expect(errors.total.value).toBeGreaterThanOrEqual(1);
    expect(errors.logs.every((e) => e.log.toLowerCase().includes("error"))).toBe(true);
    expect(errors.logs.some((e) => /exited with code 1/.test(e.log))).toBe(true);
  });

  it("readies an image tagged `unhealthy`, whose deployment then logs one panic line, found by deploymentId and query", async () => {
    const created = await client.createAgent({ serviceName: "sick-bot", image: "registry.example.com/team/bot:unhealthy" });
    const first = created.activeDeploymentId;
    await ready("sick-bot");
    const panics = (deploymentId: string) => client.getAgentLogs({ agentName: "sick-bot", deploymentId, query: "panic", limit: 10 });
    await waitFor("the panic line", async () => (await panics(first)).total.value === 1);
    const line = (await panics(first)).logs[0];
    expect(line?.log).toBe(`panic: voice pipeline lost its model connection in deployment ${first}`);
    // The line comes UNHEALTHY_AFTER_READY_MS after the ready line.
    const readyLine = (await client.getAgentLogs({ agentName: "sick-bot", deploymentId: first, query: "accepting sessions", limit: 1 })).logs[0];
    expect(toNs(line?.timestamp ?? "") - toNs(readyLine?.timestamp ?? "")).toBe(BigInt(UNHEALTHY_AFTER_READY_MS) * 1_000_000n);
    // Another image's deployment of the same agent logs none; the first one's line stays its own.
    const healthy = await client.updateAgent("sick-bot", { image: "registry.example.com/team/bot:2" });
    const second = healthy["desiredDeploymentId"] as string;
    await ready("sick-bot");
    expect((await client.getAgent("sick-bot")).activeDeploymentId).toBe(second);
    await sleep(UNHEALTHY_AFTER_READY_MS + 50);
    expect((await panics(second)).total.value).toBe(0);
    expect((await panics(first)).total.value).toBe(1);
    expect((await client.getAgentLogs({ agentName: "sick-bot", query: "panic", limit: 10 })).total.value).toBe(1);
  });

  it('readies an image with "fail" in its repository path but not as its tag', async () => {
    // Only the tag counts: "fail" in the repository path is an ordinary name.
    await client.createAgent({ serviceName: "not-fail-bot", image: "registry.example.com/fail/bot:1" });
    await ready("not-fail-bot");
  });
});

describe("POST /v1/agents/{name} (update)", () => {
  it("keeps the deployment on a scaling-only update, which stays ready and reports the new scaling", async () => {
    const created = await client.createAgent({
      serviceName: "scale-bot",
      image: "bot:1",
      secretSet: "voice-secrets",
      autoScaling: { minAgents: 1, maxAgents: 2 },
    });
    await ready("scale-bot");
    const r = await emu.raw("POST", "/v1/agents/scale-bot", {
      json: { image: "bot:1", secretSet: "voice-secrets", autoScaling: { minAgents: 3, maxAgents: 9 } },
    });
    expect(r.status).toBe(200);
    const updated = documented(r.json);
    expect(updated.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(updated.ready).toBe(true);
    expect(updated.activeDeploymentReady).toBe(true);
    expect(updated.autoScaling).toEqual({ minReplicas: 3, maxReplicas: 9 });
    expect(updated.deployment?.manifest.spec.autoScaling).toEqual({ minReplicas: 3, maxReplicas: 9 });
    expect(updated.createdAt).toBe(created.createdAt);
    expect(updated.deployment?.createdAt).toBe(created.deployment?.createdAt);
    expect((updated.deployment?.updatedAt ?? "") > (created.deployment?.updatedAt ?? "")).toBe(true);
    expect(updated.updatedAt > (created.updatedAt ?? "")).toBe(true);
    const agents = (await emu.control.listAgents()).agents.find((a) => a.name === "scale-bot");
    expect(agents?.deployments).toHaveLength(1);
  });

  it("makes a new deployment of the same service, desired and not ready at first, on an image change; it readies and serves later", async () => {
    const created = await client.createAgent({ serviceName: "image-bot", image: "bot:1" });
    await ready("image-bot");
    const r = await emu.raw("POST", "/v1/agents/image-bot", { json: { image: "bot:2", enableNoise: true } });
    expect(r.status).toBe(200);
    const updated = documented(r.json);
    const newId = r.json.desiredDeploymentId as string;
    expect(newId).not.toBe(created.activeDeploymentId);
    expect(updated.deployment?.id).toBe(newId);
    // The update rolls: the old deployment stays active, and ready, until the new one is.
    expect(updated.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(updated.ready).toBe(false);
    expect(updated.activeDeploymentReady).toBe(true);
    expect(updated.deployment?.manifest.spec.image).toBe("bot:2");
    expect(updated.deployment?.manifest.spec.noiseModels).toEqual({ enabled: true });
    expect(updated.deployment?.serviceId).toBe(created.deployment?.serviceId);
    expect(updated.name).toBe("image-bot");
    await ready("image-bot");
    expect((await client.getAgent("image-bot")).activeDeploymentId).toBe(newId);
    const summary = (await emu.control.listAgents()).agents.find((a) => a.name === "image-bot");
    expect(summary?.deployments.map((d) => d.id)).toEqual([created.activeDeploymentId, newId]);
    // Logs of both deployments stay readable, each under its own id.
    const oldLogs = await client.getAgentLogs({ agentName: "image-bot", deploymentId: created.activeDeploymentId, limit: 100 });
    const newLogs = await client.getAgentLogs({ agentName: "image-bot", deploymentId: newId, order: "asc" });
    expect(oldLogs.total.value).toBeGreaterThan(0);
    expect(newLogs.logs.map((e) => e.log).join("\n")).toMatch(/Pulling image "bot:2"/);
    expect(oldLogs.logs.some((e) => e.log.includes("bot:2"))).toBe(false);
  });

  it("makes a new deployment when a non-scaling field changes (enableNoise)", async () => {
    const created = await client.createAgent({ serviceName: "noise-bot", image: "bot:1" });
    const updated = await client.updateAgent("noise-bot", { image: "bot:1", enableNoise: true });
    expect(updated["desiredDeploymentId"]).not.toBe(created.activeDeploymentId);
    expect(documented(updated).deployment.manifest.spec.noiseModels.enabled).toBe(true);
  });

  it("makes a new deployment when the secret set is removed", async () => {
    const created = await client.createAgent({ serviceName: "set-bot", image: "bot:1", secretSet: "voice-secrets" });
    const r = await emu.raw("POST", "/v1/agents/set-bot", { json: { image: "bot:1" } });
    expect(r.json.desiredDeploymentId).not.toBe(created.activeDeploymentId);
    expect(r.json.deployment.manifest.spec.envFromSecretNames).toEqual([]);
  });

  it("makes a new deployment each time the same full body is posted again (a redeploy)", async () => {
    const body = { image: "bot:1", autoScaling: { minAgents: 1, maxAgents: 4 } };
    const created = await client.createAgent({ serviceName: "same-bot", ...body });
    const again = await client.updateAgent("same-bot", body);
    const twice = await client.updateAgent("same-bot", body);
    const ids = [created.activeDeploymentId, again["desiredDeploymentId"], twice["desiredDeploymentId"]];
    expect(new Set(ids).size).toBe(3);
    expect(again.autoScaling).toEqual(created.autoScaling);
    const summary = (await emu.control.listAgents()).agents.find((a) => a.name === "same-bot");
    expect(summary?.deployments.map((d) => d.id)).toEqual(ids);
  });
});

describe("DELETE /v1/agents/{name}", () => {
  it('answers {"status":"OK"} and removes the agent and its logs', async () => {
    const created = await client.createAgent({ serviceName: "doomed-bot", image: "bot:1" });
    await emu.control.appendLogs("doomed-bot", 50, { prefix: "doomed line" });
    expect((await client.getAgentLogs({ agentName: "doomed-bot" })).total.value).toBeGreaterThanOrEqual(50);

    const r = await emu.raw("DELETE", "/v1/agents/doomed-bot");
    expect(r.status).toBe(200);
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
  it("answers a log result with the deployment's lines, nanosecond timestamps, newest first, 10 by default", async () => {
    const created = await client.createAgent({ serviceName: "logs-bot", image: "bot:7" });
    const r = await emu.raw("GET", "/v1/agents/logs-bot/logs");
    expect(r.status).toBe(200);
    const result = logResultSchema.parse(r.json);
    expect(Object.keys(r.json).sort()).toEqual(["logs", "total"]);
    expect(result.total.relation).toBe("eq");
    expect(result.total.value).toBe(result.logs.length);
    expect(result.logs.length).toBeGreaterThan(0);
    expect(result.logs.some((e) => e.log.includes("bot:7"))).toBe(true);
    expect(result.logs.some((e) => e.log.includes(created.activeDeploymentId))).toBe(true);
    expect(await client.getAgentLogs({ agentName: "logs-bot" })).toEqual(result);

    const own = result.total.value;
    await emu.control.appendLogs("logs-bot", 30, { prefix: "line" });
    const page = await emu.raw("GET", "/v1/agents/logs-bot/logs");
    expect(page.json.total).toEqual({ value: own + 30, relation: "eq" });
    expect(page.json.logs).toHaveLength(10);
    expect(Object.keys(page.json.logs[0]).sort()).toEqual(["log", "timestamp"]);
    expect(page.json.logs[0].log).toBe("line 29");
    for (const entry of page.json.logs) expect(entry.timestamp).toMatch(NS_TIMESTAMP);
    const ns = (page.json.logs as { timestamp: string }[]).map((e) => toNs(e.timestamp));
    for (let i = 1; i < ns.length; i++) expect((ns[i - 1] as bigint) >= (ns[i] as bigint)).toBe(true);
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

  it("answers a set seeded through the control endpoint, and dotted names given at start or seeded", async () => {
    await emu.control.seedSecretSet("late-set", ["TOKEN", "SIP_PASSWORD", "REGION"]);
    expect(await client.getSecretSet("late-set")).toEqual({
      secrets: [{ fieldName: "TOKEN" }, { fieldName: "SIP_PASSWORD" }, { fieldName: "REGION" }],
    });
    expect((await emu.raw("GET", "/v1/secrets/pull.creds")).json).toEqual({ secrets: [{ fieldName: "DOCKER_CONFIG" }] });
    await emu.control.seedSecretSet("seeded.set", ["A"]);
    expect((await emu.raw("GET", "/v1/secrets/seeded.set")).json).toEqual({ secrets: [{ fieldName: "A" }] });
  });

  it("lets an agent load a set seeded after start", async () => {
    await emu.control.seedSecretSet("fresh-set", ["X"]);
    const agent = await client.createAgent({ serviceName: "fresh-set-bot", image: "bot:1", secretSet: "fresh-set" });
    expect(documented(agent).deployment.manifest.spec.envFromSecretNames).toEqual(["fresh-set"]);
  });
});
