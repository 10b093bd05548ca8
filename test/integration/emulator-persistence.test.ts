/** --state-file: whatever was acknowledged survives a restart. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator";
import { harness, harnessFor, type Harness } from "./support/emulator-harness";

const API_KEY = "persistence-key";
let dir: string;
let stateFile: string;
const running: Harness[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ah-emulator-state-"));
  stateFile = join(dir, "state.json");
});
afterEach(async () => {
  for (const h of running.splice(0)) await h.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<Harness> {
  const h = await harness({ apiKey: API_KEY, readyAfterMs: 60_000, stateFile, secretSets: { "start-set": ["A"] } });
  running.push(h);
  return h;
}

async function stop(h: Harness): Promise<void> {
  running.splice(running.indexOf(h), 1);
  await h.close();
}

describe("a restart with the same state file", () => {
  it("keeps agents, deployments, secret sets and logs; forgets nothing acknowledged", async () => {
    const first = await start();
    await first.control.seedSecretSet("seeded-set", ["X"]);
    const kept = (await first.call("POST", "/v1/agents", { json: { serviceName: "kept-bot", image: "bot:1", secretSet: "seeded-set" } })).body;
    const updated = (await first.call("POST", "/v1/agents/kept-bot", { json: { image: "bot:2", secretSet: "seeded-set" } })).body;
    await first.call("POST", "/v1/agents", { json: { serviceName: "deleted-bot", image: "bot:1" } });
    expect((await first.call("DELETE", "/v1/agents/deleted-bot")).status).toBe(200);
    await first.control.appendLogs("kept-bot", 2000, { prefix: "before restart" });
    const logsBefore = await first.control.dumpLogs("kept-bot");
    const agentBefore = (await first.call("GET", "/v1/agents/kept-bot")).body;
    const summaryBefore = (await first.control.listAgents()).agents;
    // The file is there, complete, and no temp file is left behind.
    expect(readdirSync(dir)).toEqual(["state.json"]);
    expect(() => JSON.parse(readFileSync(stateFile, "utf8")) as unknown).not.toThrow();
    expect(readFileSync(stateFile, "utf8")).not.toContain(API_KEY);
    await stop(first);

    const second = await start();
    const agentAfter = (await second.call("GET", "/v1/agents/kept-bot")).body;
    expect(agentAfter.activeDeploymentId).toBe(updated.activeDeploymentId);
    expect(agentAfter.activeDeploymentId).not.toBe(kept.activeDeploymentId);
    expect({ ...agentAfter, ready: agentBefore.ready, activeDeploymentReady: agentBefore.activeDeploymentReady }).toEqual(agentBefore);
    expect((await second.call("GET", "/v1/agents/deleted-bot")).status).toBe(404);
    expect((await second.call("GET", "/v1/secrets/seeded-set")).body).toEqual({ secrets: [{ fieldName: "X" }] });
    const logsAfter = await second.control.dumpLogs("kept-bot");
    // The "ready" line may be written once the deployment's time has come; everything else is identical.
    const withoutReady = (l: { log: string }) => !/accepting sessions/.test(l.log);
    expect(logsAfter.entries.filter(withoutReady)).toEqual(logsBefore.entries.filter(withoutReady));
    const summary = (await second.control.listAgents()).agents;
    expect(summary.map((a) => a.name)).toEqual(["kept-bot"]);
    expect(summary[0]?.deployments).toHaveLength(2);
    expect(summary).toEqual(summaryBefore); // readyAt included: readiness still comes from it
    // New lines come after the loaded ones.
    const third = (await second.call("POST", "/v1/agents/kept-bot", { json: { image: "bot:3", secretSet: "seeded-set" } })).body;
    const own = (await second.call("GET", `/v1/agents/kept-bot/logs?deploymentId=${third.activeDeploymentId}`)).body.logs;
    expect(own).toHaveLength(4);
    expect((await second.call("GET", "/v1/agents/kept-bot/logs?limit=4")).body.logs).toEqual(own);
    // A conflict is still a conflict after the restart.
    expect((await second.call("POST", "/v1/agents", { json: { serviceName: "kept-bot", image: "bot:1" } })).status).toBe(409);
  });

  it("keeps an agent created by a request whose connection was dropped after acting", async () => {
    const first = await start();
    await first.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-after" });
    await expect(first.call("POST", "/v1/agents", { json: { serviceName: "dropped-bot", image: "bot:1" } })).rejects.toThrow();
    await stop(first);
    const second = await start();
    expect((await second.call("GET", "/v1/agents/dropped-bot")).status).toBe(200);
  });

  it("a reset is persisted too", async () => {
    const first = await start();
    await first.call("POST", "/v1/agents", { json: { serviceName: "reset-bot", image: "bot:1" } });
    await first.control.reset();
    await stop(first);
    const second = await start();
    expect((await second.control.listAgents()).agents).toEqual([]);
  });

  it("a state file that is not the emulator's is refused with its name", async () => {
    writeFileSync(stateFile, "{ not json");
    await expect(startEmulator({ port: 0, stateFile })).rejects.toThrow(stateFile);
    writeFileSync(stateFile, JSON.stringify({ something: "else" }));
    await expect(startEmulator({ port: 0, stateFile })).rejects.toThrow(stateFile);
  });

  it("without a state file nothing is written and a restart starts empty", async () => {
    const first = harnessFor(await startEmulator({ port: 0, apiKey: API_KEY }));
    running.push(first);
    await first.call("POST", "/v1/agents", { json: { serviceName: "memory-bot", image: "bot:1" } });
    await stop(first);
    const second = harnessFor(await startEmulator({ port: 0, apiKey: API_KEY }));
    running.push(second);
    expect((await second.call("GET", "/v1/agents/memory-bot")).status).toBe(404);
    expect(readdirSync(dir)).toEqual([]);
  });
});
