/**
 * --state-file / the stateFile option: everything acknowledged
 * survives a restart (agents, deployments, logs, secret sets, a reset); the
 * file is valid JSON without the key, written before the answer, and no temp
 * file is left behind. Without a state file nothing is written.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documented } from "../support/documented-agent";
import { API_KEY } from "../support/fixtures";
import { startEmu, toNs, waitFor, type Emu } from "../support/emulator-fixture";

let dir: string;
const open: Emu[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-state-"));
});
afterAll(async () => {
  await Promise.all(open.map((e) => e.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(stateFile: string, secretSets: Record<string, string[]> = { "voice-secrets": ["A", "B"] }): Promise<Emu> {
  const emu = await startEmu({ stateFile, readyAfterMs: 50, secretSets });
  open.push(emu);
  return emu;
}

describe("state file", () => {
  it("keeps agents, deployments, logs and secret sets across a restart", async () => {
    // A folder of its own, so what the other tests write beside it does not matter.
    const own = mkdtempSync(join(dir, "restart-"));
    const stateFile = join(own, "state.json");
    expect(existsSync(stateFile)).toBe(false);
    const first = await start(stateFile);
    const c1 = first.newClient();

    await first.control.seedSecretSet("seeded-set", ["TOKEN", "REGION"]);
    await c1.createAgent({ serviceName: "alpha", image: "bot:1", secretSet: "seeded-set", autoScaling: { minAgents: 1, maxAgents: 3 } });
    await c1.createAgent({ serviceName: "beta", image: "bot:1", enableNoise: true });
    await c1.createAgent({ serviceName: "broken", image: "bot:fail" });
    await c1.createAgent({ serviceName: "gone", image: "bot:1" });
    await c1.updateAgent("beta", { image: "bot:2", enableNoise: true }); // a second deployment
    await c1.updateAgent("alpha", { image: "bot:1", secretSet: "seeded-set", autoScaling: { minAgents: 2, maxAgents: 5 } });
    await c1.deleteAgent("gone");
    await first.control.appendLogs("alpha", 300, { prefix: "Alpha Event" });
    for (const name of ["alpha", "beta"]) await waitFor(`${name} ready`, async () => (await c1.getAgent(name)).ready);

    const agentsBefore = await Promise.all(["alpha", "beta", "broken"].map((n) => c1.getAgent(n)));
    const summaryBefore = (await first.control.listAgents()).agents;
    const dumpsBefore = await Promise.all(["alpha", "beta", "broken"].map((n) => first.control.dumpLogs(n)));
    await first.close();

    // The file: valid JSON without the key, and nothing else left in the directory.
    expect(() => JSON.parse(readFileSync(stateFile, "utf8")) as unknown).not.toThrow();
    expect(readFileSync(stateFile, "utf8")).not.toContain(API_KEY);
    expect(readdirSync(own)).toEqual(["state.json"]);

    // Another emulator on the same file, started without the seeded set.
    const second = await start(stateFile);
    expect(second.emulator.port).not.toBe(first.emulator.port);
    const c2 = second.newClient();
    const agentsAfter = await Promise.all(["alpha", "beta", "broken"].map((n) => c2.getAgent(n)));
    expect(agentsAfter).toEqual(agentsBefore);
    for (const agent of agentsAfter) documented(agent);
    expect(agentsAfter[0]?.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 5 });
    expect(agentsAfter[1]?.ready).toBe(true);
    expect(agentsAfter[2]?.ready).toBe(false);
    expect((await second.control.listAgents()).agents).toEqual(summaryBefore);
    expect(summaryBefore.find((a) => a.name === "beta")?.deployments).toHaveLength(2);
    await expect(c2.getAgent("gone")).rejects.toThrow(/404/);

    const dumpsAfter = await Promise.all(["alpha", "beta", "broken"].map((n) => second.control.dumpLogs(n)));
    expect(dumpsAfter).toEqual(dumpsBefore);
    expect(dumpsAfter[0]?.entries.filter((e) => e.log.startsWith("Alpha Event"))).toHaveLength(300);
    const alphaLogs = await c2.getAgentLogs({ agentName: "alpha", query: "alpha event 29", order: "asc", limit: 100 });
    expect(alphaLogs.total).toEqual({ value: 11, relation: "eq" });
    expect(alphaLogs.logs.map((e) => e.log)).toEqual(["Alpha Event 29", ...Array.from({ length: 10 }, (_, i) => `Alpha Event ${290 + i}`)]);

    expect(await c2.getSecretSet("seeded-set")).toEqual({ secrets: [{ fieldName: "TOKEN" }, { fieldName: "REGION" }] });
    expect(await c2.getSecretSet("voice-secrets")).toEqual({ secrets: [{ fieldName: "A" }, { fieldName: "B" }] });

    // The name of a loaded agent is still taken; a new agent's lines come after every loaded one.
    expect((await second.raw("POST", "/v1/agents", { json: { serviceName: "alpha", image: "bot:9" } })).status).toBe(409);
    const moved = await c2.updateAgent("alpha", { image: "bot:3", secretSet: "seeded-set", autoScaling: { minAgents: 2, maxAgents: 5 } });
    const all = (await second.control.dumpLogs("alpha")).entries;
    const lastLoaded = dumpsBefore[0]?.entries.at(-1);
    expect(lastLoaded).toBeDefined();
    const fresh = all.filter((e) => e.deploymentId === moved["desiredDeploymentId"]);
    expect(fresh.some((e) => e.log.includes("bot:3"))).toBe(true);
    expect(all.slice(0, all.length - fresh.length)).toEqual(dumpsBefore[0]?.entries);
    for (const e of fresh) expect(toNs(e.timestamp) > toNs(lastLoaded?.timestamp ?? "")).toBe(true);
    await second.close();
    expect(readdirSync(own)).toEqual(["state.json"]);
  });

  it("writes the file before acknowledging each change", async () => {
    const stateFile = join(dir, "ack.json");
    const emu = await start(stateFile, {});
    const read = () => JSON.stringify(JSON.parse(readFileSync(stateFile, "utf8")));
    const created = await emu.raw("POST", "/v1/agents", { json: { serviceName: "acked", image: "bot:1" } });
    expect(created.status).toBe(200);
    expect(read()).toContain(created.json.activeDeploymentId);
    await emu.control.seedSecretSet("acked-set", ["K"]);
    expect(read()).toContain("acked-set");
    await emu.control.appendLogs("acked", 3, { prefix: "persisted-line" });
    expect(read()).toContain("persisted-line 2");
    const updated = await emu.raw("POST", "/v1/agents/acked", { json: { image: "bot:2" } });
    expect(read()).toContain(updated.json.activeDeploymentId);
    expect((await emu.raw("DELETE", "/v1/agents/acked")).status).toBe(200);
    expect(read()).not.toContain(created.json.activeDeploymentId);
    expect(read()).not.toContain("persisted-line");
    expect(readdirSync(dir).filter((f) => f.includes("ack"))).toEqual(["ack.json"]);
    await emu.close();
  });

  it("loses nothing acknowledged by a drop-after fault", async () => {
    const stateFile = join(dir, "drop.json");
    const emu = await start(stateFile, {});
    await emu.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-after" });
    await expect(emu.raw("POST", "/v1/agents", { json: { serviceName: "unanswered", image: "bot:1" } })).rejects.toThrow();
    await emu.close();
    const again = await start(stateFile, {});
    expect((await again.raw("GET", "/v1/agents/unanswered")).status).toBe(200);
    await again.close();
  });

  it("keeps a reset", async () => {
    const stateFile = join(dir, "reset.json");
    const first = await start(stateFile);
    await first.raw("POST", "/v1/agents", { json: { serviceName: "reset-bot", image: "bot:1" } });
    await first.control.reset();
    await first.close();
    const second = await start(stateFile);
    expect((await second.control.listAgents()).agents).toEqual([]);
    await second.close();
  });

  it("writes nothing without a state file, and a restart starts empty", async () => {
    const empty = mkdtempSync(join(dir, "none-"));
    const first = await startEmu({ readyAfterMs: 1500, secretSets: {} });
    open.push(first);
    await first.raw("POST", "/v1/agents", { json: { serviceName: "memory-bot", image: "bot:1" } });
    await first.close();
    const second = await startEmu({ readyAfterMs: 1500, secretSets: {} });
    open.push(second);
    expect((await second.raw("GET", "/v1/agents/memory-bot")).status).toBe(404);
    await second.close();
    expect(readdirSync(empty)).toEqual([]);
  });

  it("refuses to start on a file that is not a state file, naming it", async () => {
    const stateFile = join(dir, "garbage.json");
    writeFileSync(stateFile, "{ not json");
    await expect(startEmu({ stateFile })).rejects.toThrow(/garbage\.json/);
    writeFileSync(stateFile, JSON.stringify({ hello: "world" }));
    await expect(startEmu({ stateFile })).rejects.toThrow(/garbage\.json/);
  });
});
