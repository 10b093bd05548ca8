/**
 * The rollout beside the rest of the emulator: `rollout: "immediate"` (today's
 * switch at once, with neither desiredDeploymentId nor available), the
 * reading switches on a rolling update, the state file, and `--rollout`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEmulatorArgs } from "../../src/emulator/args";
import { FLAG_HELP } from "../../src/emulator/help";
import { OMITTED_FIELDS, type EmulatorOptions } from "../../src/emulator";
import { AGENT_KEYS, startEmu, waitFor, type Emu, type Raw } from "../support/emulator-fixture";

const open: Emu[] = [];
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-rollout-"));
});
afterAll(async () => {
  await Promise.all(open.map((e) => e.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function emulator(options: EmulatorOptions): Promise<Emu> {
  const emu = await startEmu({ readyAfterMs: 300, ...options });
  open.push(emu);
  return emu;
}

const flags = (r: Raw) => [r.json.ready, r.json.activeDeploymentReady];

describe('rollout "immediate"', () => {
  it("makes an update's deployment active at once, and no answer carries desiredDeploymentId or available", async () => {
    const emu = await emulator({ rollout: "immediate" });
    const created = await emu.raw("POST", "/v1/agents", { json: { serviceName: "quick-bot", image: "bot:1" } });
    const first = created.json.activeDeploymentId as string;
    await waitFor("quick-bot ready", async () => (await emu.raw("GET", "/v1/agents/quick-bot")).json.ready === true);
    const updated = await emu.raw("POST", "/v1/agents/quick-bot", { json: { image: "bot:2" } });
    const next = updated.json.activeDeploymentId as string;
    expect(next).not.toBe(first);
    expect(updated.json.deployment.id).toBe(next);
    expect(flags(updated)).toEqual([false, false]);
    const got = await emu.raw("GET", "/v1/agents/quick-bot");
    for (const answer of [created, updated, got]) expect(Object.keys(answer.json).sort()).toEqual(AGENT_KEYS);
    await waitFor("the new one ready", async () => (await emu.raw("GET", "/v1/agents/quick-bot")).json.ready === true);
    const ready = await emu.raw("GET", "/v1/agents/quick-bot");
    expect([ready.json.activeDeploymentId, ...flags(ready)]).toEqual([next, true, true]);
    expect(Object.keys(ready.json).sort()).toEqual(AGENT_KEYS);
    // A second update before the first is ready replaces it the same way: nothing is superseded.
    const third = await emu.raw("POST", "/v1/agents/quick-bot", { json: { image: "bot:3" } });
    const fourth = await emu.raw("POST", "/v1/agents/quick-bot", { json: { image: "bot:4" } });
    expect(fourth.json.activeDeploymentId).not.toBe(third.json.activeDeploymentId);
    const summary = (await emu.control.listAgents()).agents.find((a) => a.name === "quick-bot");
    expect(summary?.activeDeploymentId).toBe(fourth.json.activeDeploymentId);
    expect(summary?.desiredDeploymentId).toBe(fourth.json.activeDeploymentId);
    expect(summary?.deployments.every((d) => d.readyAt !== null)).toBe(true);
  });

  it("an image tagged `fail` is active at once and never ready", async () => {
    const emu = await emulator({ rollout: "immediate", readyAfterMs: 0 });
    await emu.raw("POST", "/v1/agents", { json: { serviceName: "fall-bot", image: "bot:1" } });
    const updated = await emu.raw("POST", "/v1/agents/fall-bot", { json: { image: "bot:fail" } });
    const got = await emu.raw("GET", "/v1/agents/fall-bot");
    expect([got.json.activeDeploymentId, ...flags(got)]).toEqual([updated.json.activeDeploymentId, false, false]);
    expect(Object.hasOwn(got.json, "available")).toBe(false);
  });
});

describe("the rollout of the other reading", () => {
  it("switches at once unless a rollout is given", async () => {
    for (const [options, rolling] of [[{ reading: "other" }, false], [{ reading: "other", rollout: "rolling" }, true]] as const) {
      const emu = await emulator({ ...options, readyAfterMs: 5_000, getOutageAfterCreate: null });
      await emu.raw("POST", "/v1/agents", { json: { serviceName: "other-bot", image: "bot:1" } });
      const updated = await emu.raw("POST", "/v1/agents/other-bot", { json: { image: "bot:2" } });
      expect(Object.hasOwn(updated.json, "desiredDeploymentId")).toBe(rolling);
      expect(updated.json.deployment?.id === updated.json.activeDeploymentId).toBe(!rolling);
    }
  });
});

describe("the reading switches on a rolling update", () => {
  it("readyFlagsApart: ready stays false while the new one is desired; after the switch its flags come apart as on a create", async () => {
    const emu = await emulator({ readyFlagsApart: { first: "ready", polls: 2 } });
    await emu.raw("POST", "/v1/agents", { json: { serviceName: "apart-bot", image: "bot:1" } });
    await waitFor("both flags", async () => (await emu.raw("GET", "/v1/agents/apart-bot")).json.activeDeploymentReady === true);
    const updated = await emu.raw("POST", "/v1/agents/apart-bot", { json: { image: "bot:2" } });
    const next = updated.json.desiredDeploymentId as string;
    expect([...flags(updated), updated.json.available]).toEqual([false, true, true]);
    await waitFor("the switch", async () => (await emu.raw("GET", "/v1/agents/apart-bot")).json.activeDeploymentId === next);
    // The poll that saw the switch was the first of the new deployment's.
    const polls = [];
    for (let i = 0; i < 3; i++) polls.push(await emu.raw("GET", "/v1/agents/apart-bot"));
    expect(polls.map((p) => [...flags(p), p.json.available])).toEqual([
      [true, false, true],
      [true, true, true],
      [true, true, true],
    ]);
  });

  it("deploymentNullOnCreate: the create answer only; an update answer describes the desired deployment", async () => {
    const emu = await emulator({ deploymentNullOnCreate: true });
    const created = await emu.raw("POST", "/v1/agents", { json: { serviceName: "null-bot", image: "bot:1" } });
    expect(created.json.deployment).toBeNull();
    expect(created.json.desiredDeploymentId).toBe(created.json.activeDeploymentId);
    expect(created.json.available).toBe(false);
    const updated = await emu.raw("POST", "/v1/agents/null-bot", { json: { image: "bot:2" } });
    expect(updated.json.deployment.id).toBe(updated.json.desiredDeploymentId);
    expect(updated.json.activeDeploymentId).toBe(created.json.activeDeploymentId);
  });

  it("omitOptionalFields: desiredDeploymentId and available stay, the listed fields go", async () => {
    const emu = await emulator({ omitOptionalFields: true });
    const created = await emu.raw("POST", "/v1/agents", { json: { serviceName: "lean-bot", image: "bot:1" } });
    const updated = await emu.raw("POST", "/v1/agents/lean-bot", { json: { image: "bot:2" } });
    for (const answer of [created, updated]) {
      expect(answer.json.desiredDeploymentId).toBe(answer.json.deployment.id);
      expect(answer.json.available).toBe(false);
      for (const path of ["updatedAt", "activeSessionCount"]) expect(Object.hasOwn(answer.json, path), path).toBe(false);
    }
    expect(OMITTED_FIELDS).not.toContain("desiredDeploymentId");
    expect(OMITTED_FIELDS).not.toContain("available");
    const immediate = await emulator({ omitOptionalFields: true, rollout: "immediate" });
    const plain = await immediate.raw("POST", "/v1/agents", { json: { serviceName: "lean-bot", image: "bot:1" } });
    expect(Object.keys(plain.json).sort()).toEqual(["activeDeploymentId", "activeDeploymentReady", "autoScaling", "createdAt", "deployment", "name", "ready"]);
  });

  it("extraFields: the desired deployment's phase is Pending (Failed for an image that fails), then Running", async () => {
    const emu = await emulator({ extraFields: true });
    await emu.raw("POST", "/v1/agents", { json: { serviceName: "phase-bot", image: "bot:1" } });
    await waitFor("phase-bot ready", async () => (await emu.raw("GET", "/v1/agents/phase-bot")).json.ready === true);
    const updated = await emu.raw("POST", "/v1/agents/phase-bot", { json: { image: "bot:2" } });
    expect([updated.json.deployment.phase, updated.json.deployment.revision]).toEqual(["Pending", 2]);
    const next = updated.json.desiredDeploymentId as string;
    await waitFor("the switch", async () => (await emu.raw("GET", "/v1/agents/phase-bot")).json.activeDeploymentId === next);
    expect((await emu.raw("GET", "/v1/agents/phase-bot")).json.deployment.phase).toBe("Running");
    const failing = await emu.raw("POST", "/v1/agents/phase-bot", { json: { image: "bot:fail" } });
    expect([failing.json.deployment.phase, failing.json.deployment.revision]).toEqual(["Failed", 3]);
  });

  it("updateMerges: a merging update keeps the values of the desired deployment", async () => {
    const emu = await emulator({ updateMerges: true, secretSets: { "voice-secrets": ["A"] } });
    await emu.raw("POST", "/v1/agents", { json: { serviceName: "merge-bot", image: "bot:1" } });
    await emu.raw("POST", "/v1/agents/merge-bot", { json: { image: "bot:2", secretSet: "voice-secrets", enableNoise: true } });
    const merged = await emu.raw("POST", "/v1/agents/merge-bot", { json: { autoScaling: { minAgents: 2, maxAgents: 3 } } });
    expect(merged.json.deployment.manifest.spec).toMatchObject({
      image: "bot:2",
      envFromSecretNames: ["voice-secrets"],
      noiseModels: { enabled: true },
      autoScaling: { minReplicas: 2, maxReplicas: 3 },
    });
    // Scaling only against the desired deployment: it is kept.
    const summary = (await emu.control.listAgents()).agents.find((a) => a.name === "merge-bot");
    expect(summary?.deployments).toHaveLength(2);
    expect(merged.json.desiredDeploymentId).toBe(summary?.deployments[1]?.id);
  });
});

describe("the state file", () => {
  it("keeps desiredDeploymentId: a pending deployment is still pending after a restart, and switches at its ready time", async () => {
    const stateFile = join(dir, "pending.json");
    const first = await emulator({ stateFile });
    await first.raw("POST", "/v1/agents", { json: { serviceName: "kept-bot", image: "bot:1" } });
    await first.raw("POST", "/v1/agents", { json: { serviceName: "stuck-bot", image: "bot:1" } });
    await waitFor("ready", async () => (await first.raw("GET", "/v1/agents/kept-bot")).json.ready === true);
    const kept = await first.raw("POST", "/v1/agents/kept-bot", { json: { image: "bot:2" } });
    const stuck = await first.raw("POST", "/v1/agents/stuck-bot", { json: { image: "bot:fail" } });
    await first.close();
    const saved = JSON.parse(readFileSync(stateFile, "utf8")) as { agents: { name: string; desiredDeploymentId?: string }[] };
    expect(saved.agents.map((a) => [a.name, a.desiredDeploymentId])).toEqual([
      ["kept-bot", kept.json.desiredDeploymentId],
      ["stuck-bot", stuck.json.desiredDeploymentId],
    ]);

    const second = await emulator({ stateFile });
    const stillStuck = await second.raw("GET", "/v1/agents/stuck-bot");
    expect([stillStuck.json.activeDeploymentId, stillStuck.json.desiredDeploymentId, stillStuck.json.available, ...flags(stillStuck)]).toEqual([
      stuck.json.activeDeploymentId,
      stuck.json.desiredDeploymentId,
      true,
      false,
      true,
    ]);
    const next = kept.json.desiredDeploymentId as string;
    await waitFor("the switch", async () => (await second.raw("GET", "/v1/agents/kept-bot")).json.activeDeploymentId === next);
    expect((await second.raw("GET", "/v1/agents/kept-bot")).json.desiredDeploymentId).toBe(next);
  });

  it("loads a file written before rollouts (no desiredDeploymentId): the desired deployment is the active one", async () => {
    const stateFile = join(dir, "old.json");
    const writer = await emulator({ stateFile, readyAfterMs: 0 });
    const created = await writer.raw("POST", "/v1/agents", { json: { serviceName: "old-bot", image: "bot:1" } });
    await writer.close();
    const saved = JSON.parse(readFileSync(stateFile, "utf8")) as { agents: Record<string, unknown>[] };
    for (const agent of saved.agents) delete agent["desiredDeploymentId"];
    writeFileSync(stateFile, JSON.stringify(saved));

    const reader = await emulator({ stateFile, readyAfterMs: 0 });
    const got = await reader.raw("GET", "/v1/agents/old-bot");
    expect(got.status).toBe(200);
    const id = created.json.activeDeploymentId as string;
    expect([got.json.activeDeploymentId, got.json.desiredDeploymentId, got.json.available, ...flags(got)]).toEqual([id, id, true, true, true]);
    const updated = await reader.raw("POST", "/v1/agents/old-bot", { json: { image: "bot:2" } });
    expect(updated.json.desiredDeploymentId).not.toBe(id);
  });
});

describe("--rollout and the rollout option", () => {
  it("maps to the option; left out, the emulator rolls", async () => {
    for (const value of ["rolling", "immediate"] as const) {
      const parsed = parseEmulatorArgs(["--rollout", value]);
      expect(parsed.ok && parsed.options.rollout).toBe(value);
    }
    const none = parseEmulatorArgs([]);
    expect(none.ok && none.options.rollout).toBeUndefined();
    expect(FLAG_HELP.rollout).toMatchObject({ value: "rolling|immediate", defaultText: "rolling; immediate with --reading other" });
    const emu = await emulator({});
    expect((await emu.raw("POST", "/v1/agents", { json: { serviceName: "default-bot", image: "bot:1" } })).json.available).toBe(false);
  });

  it.each([["gradual"], ["Rolling"], [""]])("refuses --rollout %j, naming the flag and the allowed values", (value) => {
    expect(parseEmulatorArgs(["--rollout", value])).toEqual({ ok: false, message: `--rollout must be rolling or immediate, got "${value}"` });
  });

  it("refuses a rollout option it does not know", async () => {
    await expect(startEmu({ rollout: "canary" as "rolling" })).rejects.toThrow('rollout must be "rolling" or "immediate", got "canary"');
  });
});
