/** The project's own client against the emulator: every endpoint, its errors, and one keep-alive connection. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentHostingClient } from "../../src/client/client";
import { AuthenticationError, BadRequestError, ConflictError, NotFoundError } from "../../src/client/errors";
import { startEmu, waitFor, type Emu } from "../support/emulator-fixture";
import { documented } from "../support/documented-agent";

let h: Emu;
let client: AgentHostingClient;

beforeAll(async () => {
  h = await startEmu({ readyAfterMs: 150, secretSets: { "voice-secrets": ["TOKEN", "SIP_PASSWORD"] } });
  client = h.newClient({ retryBaseDelayMs: 10, retryMaxDelayMs: 50 });
});
afterAll(async () => h?.close());

describe("AgentHostingClient against the emulator", () => {
  it("create, read until ready, update, logs, secret set, delete", async () => {
    // A client of its own: the connection count must not depend on what another test's client opened.
    const client = h.newClient({ retryBaseDelayMs: 10, retryMaxDelayMs: 50 });
    const before = await h.control.stats();
    const created = await client.createAgent({
      serviceName: "client-bot",
      image: "registry.example.com/bot:1",
      secretSet: "voice-secrets",
      autoScaling: { minAgents: 1, maxAgents: 3 },
    });
    expect(created.ready).toBe(false);
    expect(documented(created).deployment.manifest.spec.envFromSecretNames).toEqual(["voice-secrets"]);
    await waitFor("client-bot ready", async () => (await client.getAgent("client-bot")).ready);
    const scaled = await client.updateAgent("client-bot", {
      image: "registry.example.com/bot:1",
      secretSet: "voice-secrets",
      autoScaling: { minAgents: 2, maxAgents: 4 },
    });
    expect(scaled.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(scaled["desiredDeploymentId"]).toBe(created.activeDeploymentId);
    // The update rolls: the new deployment is the desired one while the first still serves.
    const moved = await client.updateAgent("client-bot", { image: "registry.example.com/bot:2" });
    expect(moved.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(moved["desiredDeploymentId"]).not.toBe(created.activeDeploymentId);
    expect(moved.deployment?.id).toBe(moved["desiredDeploymentId"]);
    await h.control.appendLogs("client-bot", 2500, { prefix: "client line" });
    const page = await client.getAgentLogs({ agentName: "client-bot", limit: 5, query: "CLIENT LINE" });
    expect(page.total).toEqual({ value: 2500, relation: "eq" });
    expect(page.logs.map((l) => l.log)).toEqual(["client line 2499", "client line 2498", "client line 2497", "client line 2496", "client line 2495"]);
    const every: string[] = [];
    for await (const entry of client.iterateAgentLogs({ agentName: "client-bot", query: "client line", order: "asc" })) every.push(entry.log);
    expect(every).toHaveLength(2500);
    expect(every[0]).toBe("client line 0");
    expect(every[2499]).toBe("client line 2499");
    expect(await client.getSecretSet("voice-secrets")).toEqual({ secrets: [{ fieldName: "TOKEN" }, { fieldName: "SIP_PASSWORD" }] });
    await client.deleteAgent("client-bot");
    await expect(client.getAgent("client-bot")).rejects.toBeInstanceOf(NotFoundError);
    const after = await h.control.stats();
    expect(after.apiConnections - before.apiConnections).toBe(1);
  });

  it("maps the emulator's errors to the client's error classes", async () => {
    await client.createAgent({ serviceName: "taken-bot", image: "bot:1" });
    await expect(client.createAgent({ serviceName: "taken-bot", image: "bot:1" })).rejects.toBeInstanceOf(ConflictError);
    await expect(client.getSecretSet("no-such-set")).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.createAgent({ serviceName: "set-bot", image: "bot:1", secretSet: "missing-set" })).rejects.toBeInstanceOf(BadRequestError);
    const wrong = h.newClient({ apiKey: "wrong-key" });
    await expect(wrong.getAgent("taken-bot")).rejects.toBeInstanceOf(AuthenticationError);
  });
});
