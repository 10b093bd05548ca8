/**
 * The rolling rollout (the default): an update's new deployment is the
 * desired one while the old one stays active and serves, until the new one
 * validates; one that never validates never serves; a newer update
 * supersedes a pending one; a scaling-only update keeps the deployment;
 * logs stay per deployment. Raw HTTP, as any client sees the answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNHEALTHY_AFTER_READY_MS, panicLine } from "../../src/emulator/store";
import { sleep, startEmu, waitFor, type Emu, type Raw } from "../support/emulator-fixture";

const READY_MS = 400;
let emu: Emu;

beforeAll(async () => {
  emu = await startEmu({ readyAfterMs: READY_MS });
});
afterAll(async () => emu?.close());

/** What the rolling reading is read from, in one object. */
function rollout(r: Raw) {
  const j = r.json;
  return {
    activeDeploymentId: j.activeDeploymentId,
    desiredDeploymentId: j.desiredDeploymentId,
    available: j.available,
    ready: j.ready,
    activeDeploymentReady: j.activeDeploymentReady,
  };
}

const create = (name: string, image = "bot:1", extra: Record<string, unknown> = {}) =>
  emu.raw("POST", "/v1/agents", { json: { serviceName: name, image, ...extra } });
const update = (name: string, body: Record<string, unknown>) => emu.raw("POST", `/v1/agents/${name}`, { json: body });
const get = (name: string) => emu.raw("GET", `/v1/agents/${name}`);

/** Creates the agent and waits until its first deployment is ready; its id. */
async function readyAgent(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await create(name, "bot:1", extra);
  expect(created.status).toBe(200);
  await waitFor(`${name} ready`, async () => (await get(name)).json.ready === true);
  return created.json.activeDeploymentId as string;
}

/** The agent's log lines of one deployment (GET .../logs?deploymentId=), oldest first. */
async function linesOf(name: string, deploymentId: string, query = ""): Promise<string[]> {
  const r = await emu.raw("GET", `/v1/agents/${name}/logs?order=asc&limit=1000&deploymentId=${deploymentId}${query}`);
  expect(r.status).toBe(200);
  return (r.json.logs as { log: string }[]).map((e) => e.log);
}

describe("create", () => {
  it("makes the first deployment both active and desired, not available until it is ready", async () => {
    const created = await create("first-bot");
    const id = created.json.activeDeploymentId as string;
    expect(rollout(created)).toEqual({ activeDeploymentId: id, desiredDeploymentId: id, available: false, ready: false, activeDeploymentReady: false });
    expect(created.json.activeSessionCount).toBe(0);
    expect(created.json.deployment.id).toBe(id);
    await waitFor("first-bot ready", async () => (await get("first-bot")).json.ready === true);
    expect(rollout(await get("first-bot"))).toEqual({ activeDeploymentId: id, desiredDeploymentId: id, available: true, ready: true, activeDeploymentReady: true });
  });
});

describe("an update that makes a new deployment", () => {
  it("answers the new deployment as desired while the old one stays active and serves, then switches once it validates", async () => {
    const old = await readyAgent("roll-bot", { autoScaling: { minAgents: 1, maxAgents: 2 } });
    const updated = await update("roll-bot", { image: "bot:2", autoScaling: { minAgents: 3, maxAgents: 6 } });
    expect(updated.status).toBe(200);
    const next = updated.json.desiredDeploymentId as string;
    expect(next).toMatch(/^dep-[0-9a-f]+$/);
    expect(next).not.toBe(old);
    const pending = { activeDeploymentId: old, desiredDeploymentId: next, available: true, ready: false, activeDeploymentReady: true };
    expect(rollout(updated)).toEqual(pending);
    // deployment and autoScaling describe the desired deployment.
    expect(updated.json.deployment.id).toBe(next);
    expect(updated.json.deployment.manifest.spec.image).toBe("bot:2");
    expect(updated.json.deployment.manifest.spec.autoScaling).toEqual({ minReplicas: 3, maxReplicas: 6 });
    expect(updated.json.autoScaling).toEqual({ minReplicas: 3, maxReplicas: 6 });
    expect(rollout(await get("roll-bot"))).toEqual(pending);
    expect((await emu.control.listAgents()).agents.find((a) => a.name === "roll-bot")).toMatchObject({ activeDeploymentId: old, desiredDeploymentId: next });

    await waitFor("the switch", async () => (await get("roll-bot")).json.activeDeploymentId === next);
    const switched = await get("roll-bot");
    expect(rollout(switched)).toEqual({ activeDeploymentId: next, desiredDeploymentId: next, available: true, ready: true, activeDeploymentReady: true });
    expect(switched.json.deployment.id).toBe(next);
    const summary = (await emu.control.listAgents()).agents.find((a) => a.name === "roll-bot");
    expect(summary).toMatchObject({ activeDeploymentId: next, desiredDeploymentId: next });
    // It switched at the new deployment's ready time, which its ready line carries.
    const deployment = summary?.deployments.find((d) => d.id === next);
    expect(deployment?.readyAt).toBe((deployment?.createdAt ?? 0) + READY_MS);
    expect(await linesOf("roll-bot", next, "&query=accepting")).toEqual([`Agent ready: deployment ${next} is accepting sessions`]);
  });

  it("posting the same spec again is a redeploy: a new desired deployment, the old one serving meanwhile", async () => {
    const old = await readyAgent("again-bot");
    const again = await update("again-bot", { image: "bot:1" });
    expect(again.json.desiredDeploymentId).not.toBe(old);
    expect(rollout(again)).toMatchObject({ activeDeploymentId: old, available: true, ready: false, activeDeploymentReady: true });
  });

  it("an image tagged `fail` never validates: the old deployment serves forever, the error lines are the new one's", async () => {
    const old = await readyAgent("doomed-bot");
    const updated = await update("doomed-bot", { image: "bot:fail" });
    const failing = updated.json.desiredDeploymentId as string;
    const stuck = { activeDeploymentId: old, desiredDeploymentId: failing, available: true, ready: false, activeDeploymentReady: true };
    expect(rollout(updated)).toEqual(stuck);
    await sleep(READY_MS * 2 + 50);
    expect(rollout(await get("doomed-bot"))).toEqual(stuck);
    expect((await get("doomed-bot")).json.deployment.manifest.spec.image).toBe("bot:fail");
    expect(await linesOf("doomed-bot", failing)).toEqual([
      `Scheduling deployment ${failing} on node type arm`,
      'Pulling image "bot:fail"',
      'Successfully pulled image "bot:fail"',
      "Starting container agent (replicas 1..1)",
      "Error: container agent exited with code 1: failed to start voice pipeline",
      `Back-off restarting failed container agent in deployment ${failing}`,
    ]);
    expect(await linesOf("doomed-bot", old, "&query=error")).toEqual([]);
    expect(await linesOf("doomed-bot", old, "&query=accepting")).toEqual([`Agent ready: deployment ${old} is accepting sessions`]);
  });

  it("an image tagged `unhealthy` validates, switches, then logs its panic line under its own deployment", async () => {
    const old = await readyAgent("sick-bot");
    const sick = (await update("sick-bot", { image: "bot:unhealthy" })).json.desiredDeploymentId as string;
    await waitFor("the switch", async () => (await get("sick-bot")).json.activeDeploymentId === sick);
    expect(rollout(await get("sick-bot"))).toEqual({ activeDeploymentId: sick, desiredDeploymentId: sick, available: true, ready: true, activeDeploymentReady: true });
    await sleep(UNHEALTHY_AFTER_READY_MS + 50);
    expect(await linesOf("sick-bot", sick, "&query=panic")).toEqual([panicLine(sick)]);
    expect(await linesOf("sick-bot", old, "&query=panic")).toEqual([]);
  });

  it("a second update while one is desired supersedes it: the newest is desired, the superseded one never serves", async () => {
    const old = await readyAgent("hasty-bot");
    const second = (await update("hasty-bot", { image: "bot:2" })).json.desiredDeploymentId as string;
    await sleep(READY_MS / 2);
    const third = await update("hasty-bot", { image: "bot:3" });
    const newest = third.json.desiredDeploymentId as string;
    expect(new Set([old, second, newest]).size).toBe(3);
    expect(rollout(third)).toEqual({ activeDeploymentId: old, desiredDeploymentId: newest, available: true, ready: false, activeDeploymentReady: true });
    expect(third.json.deployment.manifest.spec.image).toBe("bot:3");
    // Past the superseded one's ready time the old one still serves; then the newest takes over.
    const seen = new Set<string>();
    await waitFor("the newest serves", async () => {
      const now = await get("hasty-bot");
      seen.add(now.json.activeDeploymentId as string);
      return now.json.activeDeploymentId === newest;
    });
    expect([...seen]).toEqual([old, newest]);
    const summary = (await emu.control.listAgents()).agents.find((a) => a.name === "hasty-bot");
    expect(summary?.deployments.map((d) => [d.id, d.image, d.readyAt === null])).toEqual([
      [old, "bot:1", false],
      [second, "bot:2", true],
      [newest, "bot:3", false],
    ]);
    expect(await linesOf("hasty-bot", second, "&query=superseded")).toEqual([`Deployment ${second} superseded by deployment ${newest}: it will not serve`]);
    expect(await linesOf("hasty-bot", second, "&query=accepting")).toEqual([]);
  });

  it("an update after the switch supersedes nothing: the serving one is replaced the ordinary way", async () => {
    const old = await readyAgent("calm-bot");
    const next = (await update("calm-bot", { image: "bot:2" })).json.desiredDeploymentId as string;
    await waitFor("the switch", async () => (await get("calm-bot")).json.activeDeploymentId === next);
    const third = await update("calm-bot", { image: "bot:3" });
    expect(rollout(third)).toMatchObject({ activeDeploymentId: next, available: true, ready: false, activeDeploymentReady: true });
    expect(await linesOf("calm-bot", next, "&query=superseded")).toEqual([]);
    expect(await linesOf("calm-bot", old, "&query=superseded")).toEqual([]);
  });
});

describe("a scaling-only update", () => {
  it("keeps the serving deployment when none is pending", async () => {
    const id = await readyAgent("scale-bot", { autoScaling: { minAgents: 1, maxAgents: 2 } });
    const scaled = await update("scale-bot", { image: "bot:1", autoScaling: { minAgents: 2, maxAgents: 5 } });
    expect(rollout(scaled)).toEqual({ activeDeploymentId: id, desiredDeploymentId: id, available: true, ready: true, activeDeploymentReady: true });
    expect(scaled.json.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 5 });
    expect(await linesOf("scale-bot", id, "&query=scaling")).toEqual([`Scaling deployment ${id} to 2..5 replicas`]);
    expect((await emu.control.listAgents()).agents.find((a) => a.name === "scale-bot")?.deployments).toHaveLength(1);
  });

  it("keeps a pending desired deployment too (and scales the serving one with it); the switch comes at the desired one's ready time", async () => {
    const old = await readyAgent("grow-bot");
    const pending = await update("grow-bot", { image: "bot:2" });
    const next = pending.json.desiredDeploymentId as string;
    const scaled = await update("grow-bot", { image: "bot:2", autoScaling: { minAgents: 2, maxAgents: 4 } });
    expect(rollout(scaled)).toEqual({ activeDeploymentId: old, desiredDeploymentId: next, available: true, ready: false, activeDeploymentReady: true });
    expect(scaled.json.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 4 });
    expect(scaled.json.deployment.id).toBe(next);
    expect(scaled.json.deployment.manifest.spec.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 4 });
    expect(await linesOf("grow-bot", next, "&query=scaling")).toEqual([`Scaling deployment ${next} to 2..4 replicas`]);
    expect(await linesOf("grow-bot", old, "&query=scaling")).toEqual([`Scaling deployment ${old} to 2..4 replicas`]);
    const summary = (await emu.control.listAgents()).agents.find((a) => a.name === "grow-bot");
    expect(summary?.deployments.map((d) => d.id)).toEqual([old, next]);
    const desired = summary?.deployments.find((d) => d.id === next);
    expect(desired?.readyAt).toBe((desired?.createdAt ?? 0) + READY_MS);
    await waitFor("the switch", async () => (await get("grow-bot")).json.activeDeploymentId === next);
    expect((await get("grow-bot")).json.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 4 });
  });
});

describe("logs per deployment", () => {
  it("the deploymentId filter returns that deployment's lines only, the same as the control dump holds", async () => {
    const old = await readyAgent("log-bot");
    const next = (await update("log-bot", { image: "bot:2" })).json.desiredDeploymentId as string;
    await emu.control.appendLogs("log-bot", 30, { prefix: "old session", deploymentId: old });
    await emu.control.appendLogs("log-bot", 20, { prefix: "new session", deploymentId: next });
    await waitFor("the switch", async () => (await get("log-bot")).json.activeDeploymentId === next);
    const dump = (await emu.control.dumpLogs("log-bot")).entries;
    for (const id of [old, next]) {
      const lines = await linesOf("log-bot", id);
      expect(lines).toEqual(dump.filter((e) => e.deploymentId === id).map((e) => e.log));
      expect(lines.length).toBeGreaterThan(0);
    }
    expect((await linesOf("log-bot", old)).filter((l) => l.startsWith("new session") || l.includes("bot:2"))).toEqual([]);
    expect((await linesOf("log-bot", next)).filter((l) => l.startsWith("old session"))).toEqual([]);
    expect(await linesOf("log-bot", next, "&query=session%2019")).toEqual(["new session 19"]);
    expect(await linesOf("log-bot", "dep-000000000000")).toEqual([]);
  });
});
