/**
 * test/e2e/lifecycle.test.ts's behaviours on every reading and rollout of the
 * service, through the provider core in process (the verbs the hosts call,
 * in the order the engine calls them): create, a no-op diff, an update in
 * place, a scaling-only update, a replacement; an outside delete found by
 * refresh; an outside change shown as drift and restored; an update still
 * rolling out, named by refresh; adopting an agent; no key in what the
 * state keeps. The CLI runs each of these once, on the emulator's own
 * reading (test/e2e/lifecycle.test.ts).
 */
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/client/errors";
import { startEmu, useEmulator } from "../support/emulator-fixture";
import { specOf } from "../support/fixtures";
import { providerSession } from "./support/provider-session";
import { READING_MATRIX, rollsUpdates } from "./support/reading-matrix";

const API_KEY = "matrix-LIFECYCLE-key-5e1d";

const agentArgs = (serviceName: string, image: string, scaling = { minAgents: 1, maxAgents: 3 }) => ({
  serviceName,
  image,
  secretSet: "voice-secrets",
  autoScaling: scaling,
  enableNoise: true,
});

describe.concurrent.each(READING_MATRIX)("an Agent's lifecycle through the provider core ($reading reading, $rollout rollout)", (cell) => {
  const fx = useEmulator({ ...cell, apiKey: API_KEY, readyAfterMs: 150, secretSets: { "voice-secrets": ["TOKEN", "SIP_PASSWORD"] } });
  const session = () => providerSession(fx.emulator.url, API_KEY);
  const names = async () => (await fx.control.listAgents()).agents.map((a) => a.name).sort();

  it("create, a no-op diff, an image update in place, a scaling-only update keeping the deployment, a rename replacing", async () => {
    const p = session();
    const a = await p.check(agentArgs("steps-a", "registry.example.com/bot:1"));
    const created = await p.create(a);
    expect(created.id).toBe("steps-a");
    expect(created.outs).toMatchObject({ name: "steps-a", ready: true, manifest: { spec: { image: "registry.example.com/bot:1" } } });
    expect((await p.diff("steps-a", created.outs, a)).changes).toBe(false);

    const image = await p.check(agentArgs("steps-a", "registry.example.com/bot:2"));
    const imageDiff = await p.diff("steps-a", created.outs, image);
    expect(imageDiff).toMatchObject({ changes: true, replaces: [], changed: ["image"] });
    const updated = (await p.update("steps-a", created.outs, image)).outs;
    expect(updated["name"]).toBe("steps-a");
    expect(updated["activeDeploymentId"]).not.toBe(created.outs["activeDeploymentId"]);
    expect(updated).toMatchObject({ ready: true, manifest: { spec: { image: "registry.example.com/bot:2" } } });
    // The outputs describe the deployment that serves: on a rolling service, the one the update rolled out.
    if (rollsUpdates(cell)) expect(updated).toMatchObject({ desiredDeploymentId: updated["activeDeploymentId"], available: true });
    else expect(updated).not.toHaveProperty("desiredDeploymentId");

    const scaling = await p.check(agentArgs("steps-a", "registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }));
    expect((await p.diff("steps-a", updated, scaling)).changed).toEqual(["autoScaling"]);
    const scaled = (await p.update("steps-a", updated, scaling)).outs;
    expect(scaled["activeDeploymentId"]).toBe(updated["activeDeploymentId"]);
    expect(scaled["autoScaling"]).toEqual({ minReplicas: 2, maxReplicas: 8 });

    const renamed = await p.check(agentArgs("steps-renamed", "registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }));
    expect((await p.diff("steps-a", scaled, renamed)).replaces).toEqual(["serviceName"]);
    await p.create(renamed);
    await p.delete("steps-a", scaled);
    expect((await names()).filter((n) => n.startsWith("steps-"))).toEqual(["steps-renamed"]);
    await p.delete("steps-renamed");
    await expect(fx.client.getAgent("steps-renamed")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("an agent deleted behind Pulumi's back leaves the state on refresh, and a create makes it again", async () => {
    const p = session();
    const inputs = await p.check(agentArgs("deleted-bot", "registry.example.com/bot:1"));
    const { outs } = await p.create(inputs);
    await fx.client.deleteAgent("deleted-bot");
    expect(await p.read("deleted-bot", outs)).toBeUndefined();
    expect((await p.create(inputs)).outs).toMatchObject({ name: "deleted-bot", ready: true });
  });

  it("an agent changed behind its back: refresh rebuilds the inputs, the diff shows the image, the update restores it", async () => {
    const p = session();
    const declared = await p.check(agentArgs("drift-bot", "registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }));
    const { outs } = await p.create(declared);
    await fx.client.updateAgent("drift-bot", { image: "registry.example.com/bot:tampered", secretSet: "voice-secrets", autoScaling: { minAgents: 2, maxAgents: 8 }, enableNoise: true });
    const refreshed = await p.read("drift-bot", outs);
    expect(refreshed?.inputs).toMatchObject({ serviceName: "drift-bot", image: "registry.example.com/bot:tampered" });
    expect((await p.diff("drift-bot", refreshed?.props ?? {}, declared)).changed).toEqual(["image"]);
    const restored = (await p.update("drift-bot", refreshed?.props ?? {}, declared)).outs;
    expect(specOf(await fx.client.getAgent("drift-bot"))["image"]).toBe("registry.example.com/bot:2");
    const again = await p.read("drift-bot", restored);
    expect((await p.diff("drift-bot", again?.props ?? {}, declared)).changes).toBe(false);
  });

  it("an update still rolling out: refresh names what serves and what is pending; once it serves, nothing differs", async () => {
    // Deployments take 3 s to validate here, so the second one is still pending at the refresh, however busy the machine.
    const slow = await startEmu({ ...cell, apiKey: API_KEY, readyAfterMs: 3_000 });
    try {
      const p = providerSession(slow.url, API_KEY);
      const declare = (image: string) => p.check({ serviceName: "rollout-bot", image, waitForReady: false });
      const first = await p.create(await declare("registry.example.com/bot:1"));
      const second = (await p.update("rollout-bot", first.outs, await declare("registry.example.com/bot:2"))).outs;
      const refreshed = await p.read("rollout-bot", second);
      const live = await slow.client.getAgent("rollout-bot");
      const pendingLine = `agent "rollout-bot" serves deployment ${live.activeDeploymentId} while deployment ${String(live.desiredDeploymentId)} is pending at the service`;
      if (rollsUpdates(cell)) {
        expect(live.desiredDeploymentId).not.toBe(live.activeDeploymentId);
        expect(refreshed?.props).toMatchObject({ activeDeploymentId: live.activeDeploymentId, desiredDeploymentId: live.desiredDeploymentId });
        expect(p.messages().join("\n")).toContain(pendingLine);
        while (!(await slow.client.getAgent("rollout-bot")).ready) await new Promise((r) => setTimeout(r, 100));
      } else {
        // A service that switches at once has nothing pending: the new deployment is the active one, ready or not.
        expect(refreshed?.props).not.toHaveProperty("desiredDeploymentId");
        expect(p.messages().join("\n")).not.toContain("is pending at the service");
      }
      const settledAt = p.lines.length;
      const settled = await p.read("rollout-bot", refreshed?.props);
      expect(p.messages().slice(settledAt).join("\n")).not.toContain("is pending at the service");
      expect((await p.diff("rollout-bot", settled?.props ?? {}, await declare("registry.example.com/bot:2"))).changes).toBe(false);
    } finally {
      await slow.close();
    }
  });

  it("an agent made elsewhere is adopted by a read of its name alone; a missing one fails naming it", async () => {
    const p = session();
    await fx.client.createAgent({ serviceName: "made-elsewhere", image: "registry.example.com/other:5" });
    const adopted = await p.read("made-elsewhere");
    expect(adopted?.id).toBe("made-elsewhere");
    expect(adopted?.props).toMatchObject({ name: "made-elsewhere", image: "registry.example.com/other:5" });
    expect(adopted?.inputs).toMatchObject({ serviceName: "made-elsewhere", image: "registry.example.com/other:5" });
    await expect(p.read("no-such-agent")).rejects.toThrow(/agent "no-such-agent" does not exist at the service \(GET \/v1\/agents\/no-such-agent answered 404\)/);
  });

  it("what the state keeps and the lines written hold no API key", async () => {
    const p = session();
    const inputs = await p.check(agentArgs("state-bot", "registry.example.com/bot:1"));
    const { outs } = await p.create(inputs);
    const updated = (await p.update("state-bot", outs, await p.check(agentArgs("state-bot", "registry.example.com/bot:2")))).outs;
    const refreshed = await p.read("state-bot", updated);
    await p.delete("state-bot", refreshed?.props);
    expect(JSON.stringify([outs, updated, refreshed, p.lines])).not.toContain(API_KEY);
    expect(JSON.stringify(outs)).toContain("state-bot");
  });
});
