/** The emulator's /v1 endpoints: shapes, readiness, fail images, updates, delete. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentSchema, deleteResultSchema, logResultSchema, secretSetSchema } from "../../src/client/schemas";
import { AGENT_FIELDS, NS_TIMESTAMP, harness, pollUntil, type Harness } from "./support/emulator-harness";

const READY_AFTER_MS = 200;
let h: Harness;

beforeAll(async () => {
  h = await harness({ readyAfterMs: READY_AFTER_MS, secretSets: { "voice-secrets": ["TOKEN", "SIP_PASSWORD"], "pull-creds": ["DOCKER_CONFIG"] } });
});
afterAll(async () => h?.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe("POST /v1/agents (create)", () => {
  it("answers 200 with the Agent object exactly as documented, not ready yet", async () => {
    const r = await h.call("POST", "/v1/agents", {
      json: {
        serviceName: "voice-bot",
        image: "registry.example.com/voice-bot:1.4.2",
        nodeType: "arm",
        secretSet: "voice-secrets",
        imagePullSecretSet: "pull-creds",
        autoScaling: { minAgents: 1, maxAgents: 5 },
        enableNoise: true,
      },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(agentSchema.safeParse(r.body).success).toBe(true);
    expect(Object.keys(r.body).sort()).toEqual(AGENT_FIELDS);
    const a = r.body;
    expect(a.name).toBe("voice-bot");
    expect(a.ready).toBe(false);
    expect(a.activeDeploymentReady).toBe(false);
    expect(a.activeSessionCount).toBe(0);
    expect(a.createdAt).toMatch(ISO);
    expect(a.updatedAt).toMatch(ISO);
    expect(a.autoScaling).toEqual({ minReplicas: 1, maxReplicas: 5 });
    expect(a.deployment.id).toBe(a.activeDeploymentId);
    expect(a.activeDeploymentId).toMatch(/^dep-[0-9a-f]+$/);
    expect(typeof a.deployment.serviceId).toBe("string");
    expect(a.deployment.createdAt).toMatch(ISO);
    expect(a.deployment.updatedAt).toMatch(ISO);
    expect(a.deployment.manifest).toEqual({
      apiVersion: "agents.emulator.local/v1",
      kind: "Agent",
      metadata: { name: "voice-bot", namespace: "emulator-default" },
      spec: {
        platformNodeType: "arm",
        clusterLocal: false,
        image: "registry.example.com/voice-bot:1.4.2",
        autoScaling: { minReplicas: 1, maxReplicas: 5 },
        envFromSecretNames: ["voice-secrets"],
        noiseModels: { enabled: true },
        imagePullSecretNames: ["pull-creds"],
      },
    });
  });

  it("applies the defaults: nodeType arm, noise off, no secret sets, autoScaling 1..1", async () => {
    const r = await h.call("POST", "/v1/agents", { json: { serviceName: "plain-bot", image: "bot:1" } });
    expect(r.status).toBe(200);
    expect(r.body.autoScaling).toEqual({ minReplicas: 1, maxReplicas: 1 });
    expect(r.body.deployment.manifest.spec).toEqual({
      platformNodeType: "arm",
      clusterLocal: false,
      image: "bot:1",
      autoScaling: { minReplicas: 1, maxReplicas: 1 },
      envFromSecretNames: [],
      noiseModels: { enabled: false },
      imagePullSecretNames: [],
    });
  });

  it("gives every deployment its own id and every agent its own serviceId", async () => {
    const a = (await h.call("POST", "/v1/agents", { json: { serviceName: "ids-a", image: "bot:1" } })).body;
    const b = (await h.call("POST", "/v1/agents", { json: { serviceName: "ids-b", image: "bot:1" } })).body;
    expect(a.activeDeploymentId).not.toBe(b.activeDeploymentId);
    expect(a.deployment.serviceId).not.toBe(b.deployment.serviceId);
  });
});

describe("GET /v1/agents/{name} and readiness", () => {
  it("becomes ready readyAfterMs after creation, both flags together", async () => {
    const created = (await h.call("POST", "/v1/agents", { json: { serviceName: "ready-bot", image: "bot:2" } })).body;
    const started = Date.now();
    const first = await h.call("GET", "/v1/agents/ready-bot");
    expect(first.status).toBe(200);
    expect(agentSchema.safeParse(first.body).success).toBe(true);
    expect(first.body.ready).toBe(false);
    let seen: { ready: boolean; activeDeploymentReady: boolean } | undefined;
    const became = await pollUntil(async () => {
      seen = (await h.call("GET", "/v1/agents/ready-bot")).body;
      expect(seen?.ready).toBe(seen?.activeDeploymentReady);
      return seen?.ready === true;
    }, 5_000);
    expect(became).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(READY_AFTER_MS - 50);
    const { agents } = await h.control.listAgents();
    const summary = agents.find((a) => a.name === "ready-bot");
    expect(summary?.activeDeploymentId).toBe(created.activeDeploymentId);
    const deployment = summary?.deployments[0];
    expect(deployment?.readyAt).toBe((deployment?.createdAt ?? 0) + READY_AFTER_MS);
    expect(deployment?.image).toBe("bot:2");
    const logs = (await h.call("GET", "/v1/agents/ready-bot/logs?order=asc&limit=100")).body;
    const lines = logs.logs.map((l: { log: string }) => l.log).join("\n");
    expect(lines).toMatch(/Pulling image "bot:2"/);
    expect(lines).toMatch(/Successfully pulled image "bot:2"/);
    expect(lines).toMatch(/Starting container/);
    expect(lines).toMatch(/accepting sessions/);
  });

  it("an image tagged `fail` never becomes ready and writes error lines", async () => {
    await h.call("POST", "/v1/agents", { json: { serviceName: "broken-bot", image: "repo/img:fail" } });
    await new Promise((r) => setTimeout(r, READY_AFTER_MS * 2));
    const agent = (await h.call("GET", "/v1/agents/broken-bot")).body;
    expect(agent.ready).toBe(false);
    expect(agent.activeDeploymentReady).toBe(false);
    const { agents } = await h.control.listAgents();
    expect(agents.find((a) => a.name === "broken-bot")?.deployments[0]?.readyAt).toBeNull();
    const logs = (await h.call("GET", "/v1/agents/broken-bot/logs?query=error")).body;
    expect(logs.total.value).toBeGreaterThan(0);
    expect(logs.logs.some((l: { log: string }) => /exited with code 1/.test(l.log))).toBe(true);
    const all = (await h.call("GET", "/v1/agents/broken-bot/logs?limit=100")).body;
    expect(all.logs.some((l: { log: string }) => /accepting sessions/.test(l.log))).toBe(false);
  });
});

describe("POST /v1/agents/{name} (update)", () => {
  it("a scaling-only change keeps the deployment, which stays ready", async () => {
    const created = (
      await h.call("POST", "/v1/agents", { json: { serviceName: "scale-bot", image: "bot:1", autoScaling: { minAgents: 1, maxAgents: 2 } } })
    ).body;
    expect(await pollUntil(async () => (await h.call("GET", "/v1/agents/scale-bot")).body.ready === true, 5_000)).toBe(true);
    const r = await h.call("POST", "/v1/agents/scale-bot", { json: { image: "bot:1", autoScaling: { minAgents: 2, maxAgents: 8 } } });
    expect(r.status).toBe(200);
    expect(agentSchema.safeParse(r.body).success).toBe(true);
    expect(r.body.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(r.body.ready).toBe(true);
    expect(r.body.activeDeploymentReady).toBe(true);
    expect(r.body.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 8 });
    expect(r.body.deployment.manifest.spec.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 8 });
    expect(r.body.createdAt).toBe(created.createdAt);
    expect(r.body.deployment.createdAt).toBe(created.deployment.createdAt);
    expect(r.body.deployment.updatedAt > created.deployment.updatedAt).toBe(true);
    expect(r.body.updatedAt > created.updatedAt).toBe(true);
  });

  it("any other change makes a new deployment that is not ready until readyAfterMs later", async () => {
    const created = (await h.call("POST", "/v1/agents", { json: { serviceName: "image-bot", image: "bot:1" } })).body;
    expect(await pollUntil(async () => (await h.call("GET", "/v1/agents/image-bot")).body.ready === true, 5_000)).toBe(true);
    const r = await h.call("POST", "/v1/agents/image-bot", { json: { image: "bot:2", enableNoise: true } });
    expect(r.status).toBe(200);
    expect(r.body.activeDeploymentId).not.toBe(created.activeDeploymentId);
    expect(r.body.deployment.id).toBe(r.body.activeDeploymentId);
    expect(r.body.ready).toBe(false);
    expect(r.body.activeDeploymentReady).toBe(false);
    expect(r.body.deployment.manifest.spec.image).toBe("bot:2");
    expect(r.body.deployment.manifest.spec.noiseModels).toEqual({ enabled: true });
    expect(r.body.deployment.serviceId).toBe(created.deployment.serviceId);
    expect(await pollUntil(async () => (await h.call("GET", "/v1/agents/image-bot")).body.ready === true, 5_000)).toBe(true);
    const newLines = (await h.call("GET", `/v1/agents/image-bot/logs?deploymentId=${r.body.activeDeploymentId}&order=asc`)).body;
    expect(newLines.logs.map((l: { log: string }) => l.log).join("\n")).toMatch(/Pulling image "bot:2"/);
    const oldLines = (await h.call("GET", `/v1/agents/image-bot/logs?deploymentId=${created.activeDeploymentId}&limit=100`)).body;
    expect(oldLines.logs.every((l: { log: string }) => !l.log.includes("bot:2"))).toBe(true);
    const { agents } = await h.control.listAgents();
    expect(agents.find((a) => a.name === "image-bot")?.deployments.map((d) => d.id)).toEqual([
      created.activeDeploymentId,
      r.body.activeDeploymentId,
    ]);
  });

  it("changing the secret set or removing it also makes a new deployment", async () => {
    const created = (await h.call("POST", "/v1/agents", { json: { serviceName: "set-bot", image: "bot:1", secretSet: "voice-secrets" } })).body;
    const r = await h.call("POST", "/v1/agents/set-bot", { json: { image: "bot:1" } });
    expect(r.body.activeDeploymentId).not.toBe(created.activeDeploymentId);
    expect(r.body.deployment.manifest.spec.envFromSecretNames).toEqual([]);
  });
});

describe("DELETE /v1/agents/{name}", () => {
  it("answers { status: OK } and removes the agent and its logs", async () => {
    await h.call("POST", "/v1/agents", { json: { serviceName: "gone-bot", image: "bot:1" } });
    await h.control.appendLogs("gone-bot", 50);
    const r = await h.call("DELETE", "/v1/agents/gone-bot");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "OK" });
    expect(deleteResultSchema.safeParse(r.body).success).toBe(true);
    expect((await h.call("GET", "/v1/agents/gone-bot")).status).toBe(404);
    expect((await h.call("GET", "/v1/agents/gone-bot/logs")).status).toBe(404);
    expect((await h.call("DELETE", "/v1/agents/gone-bot")).status).toBe(404);
    // A new agent of the same name starts with its own logs only.
    await h.call("POST", "/v1/agents", { json: { serviceName: "gone-bot", image: "bot:1" } });
    const logs = (await h.call("GET", "/v1/agents/gone-bot/logs?limit=1000")).body;
    expect(logs.logs.every((l: { log: string }) => !l.log.startsWith("session event"))).toBe(true);
  });
});

describe("GET /v1/agents/{name}/logs and GET /v1/secrets/{name}", () => {
  it("logs: the documented result, nanosecond timestamps, newest first by default, limit 10", async () => {
    await h.call("POST", "/v1/agents", { json: { serviceName: "log-bot", image: "bot:1" } });
    await h.control.appendLogs("log-bot", 30, { prefix: "line" });
    const r = await h.call("GET", "/v1/agents/log-bot/logs");
    expect(r.status).toBe(200);
    expect(logResultSchema.safeParse(r.body).success).toBe(true);
    expect(Object.keys(r.body).sort()).toEqual(["logs", "total"]);
    expect(r.body.total).toEqual({ value: 34, relation: "eq" });
    expect(r.body.logs).toHaveLength(10);
    expect(Object.keys(r.body.logs[0]).sort()).toEqual(["log", "timestamp"]);
    expect(r.body.logs[0].log).toBe("line 29");
    for (const entry of r.body.logs) expect(entry.timestamp).toMatch(NS_TIMESTAMP);
    const stamps = r.body.logs.map((l: { timestamp: string }) => l.timestamp);
    expect([...stamps].sort().reverse()).toEqual(stamps);
  });

  it("secrets: the field names of the set, never values", async () => {
    const r = await h.call("GET", "/v1/secrets/voice-secrets");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ secrets: [{ fieldName: "TOKEN" }, { fieldName: "SIP_PASSWORD" }] });
    expect(secretSetSchema.safeParse(r.body).success).toBe(true);
    await h.control.seedSecretSet("seeded.set", ["A"]);
    expect((await h.call("GET", "/v1/secrets/seeded.set")).body).toEqual({ secrets: [{ fieldName: "A" }] });
  });

  it("path parameters are percent-decoded", async () => {
    expect((await h.call("GET", "/v1/secrets/voice%2Dsecrets")).status).toBe(200);
    expect((await h.call("GET", "/v1/agents/log%2dbot")).status).toBe(200);
  });
});
