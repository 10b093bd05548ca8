/**
 * When a deployment fails, on every reading and rollout of the service,
 * through the provider core in process (what both hosts call): the cases of
 * test/e2e/deployment-failures.test.ts (dynamic provider) and
 * test/e2e/yaml-deployment-failures.test.ts (native plugin), whose
 * host-specific parts run under the CLI on the emulator's own reading. A
 * never-ready update and a health check's line rolled back, a clean update
 * passing although the old deployment logged that line, a failed create
 * rolled back to nothing, keep leaving the failed deployment (never ready,
 * or unhealthy) in place, the engine's timeout ending a wait, and a cancel
 * during a wait or a rollback that the next update converges from.
 */
import { describe, expect, it } from "vitest";
import { isPartialFailure } from "../../src/core/partial-failure";
import type { Props } from "../../src/core/resource-entry";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { providerSession, type ProviderSession } from "./support/provider-session";
import { READING_MATRIX, rollsUpdates, type MatrixCell } from "./support/reading-matrix";

const API_KEY = "matrix-FAILURES-key-90c4";
const GOOD = "registry.example.com/bot:1";
const NEVER_READY = "registry.example.com/bot:fail";
const UNHEALTHY = "registry.example.com/bot:unhealthy";

/** The failed call's error and the properties the engine keeps for it (none when it is not a partial failure). */
async function failed(promise: Promise<unknown>): Promise<{ error: Error; kept: Props | undefined }> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  return { error: error as Error, kept: isPartialFailure(error) ? error.properties : undefined };
}

interface Case {
  emu: Emu;
  p: ProviderSession;
  summary(): Promise<{ activeDeploymentId: string; deployments: { id: string; image: string }[] } | undefined>;
  imageAtService(): Promise<unknown>;
  /**
   * A ready agent of `args`, made with readyTimeoutSeconds 30 whatever `args` says: the other reading's GET
   * outage after a create (4 answers of 503, each retried after its Retry-After) alone lasts about 3 s.
   */
  ready(args: Props): Promise<Props>;
}

/** An emulator of its own for one case (its deployments and requests are the case's), ready after 150 ms. */
async function withCase(cell: MatrixCell, name: string, body: (c: Case) => Promise<void>): Promise<void> {
  const emu = await startEmu({ ...cell, apiKey: API_KEY, readyAfterMs: 150 });
  try {
    const p = providerSession(emu.url, API_KEY);
    await body({
      emu,
      p,
      summary: async () => (await emu.control.listAgents()).agents.find((a) => a.name === name),
      imageAtService: async () => (await emu.client.getAgent(name)).deployment?.manifest?.["spec"]?.["image" as never],
      ready: async (args) => (await p.create(await p.check({ ...args, readyTimeoutSeconds: 30 }))).outs,
    });
  } finally {
    await emu.close();
  }
}

describe.concurrent.each(READING_MATRIX)("failed deployments through the provider core ($reading reading, $rollout rollout)", (cell) => {
  const rolling = rollsUpdates(cell);

  it("rolls a never-ready update back to the last ready spec; the state says so and the next diff shows the change again", () =>
    withCase(cell, "rollback-bot", async ({ p, summary, imageAtService, ready, emu }) => {
      const base = { serviceName: "rollback-bot", image: GOOD, readyTimeoutSeconds: 3, onFailure: "rollback" };
      const first = await ready(base);
      const next = await p.check({ ...base, image: NEVER_READY });
      expect((await p.diff("rollback-bot", first, next)).changed).toContain("image");
      const { error, kept } = await failed(p.update("rollback-bot", first, next));
      const after = await summary();
      const [, failedDeployment, rolledBack] = after?.deployments ?? [];
      expect(after?.deployments).toHaveLength(3);
      expect(failedDeployment?.image).toBe(NEVER_READY);
      expect(rolledBack?.image).toBe(GOOD);
      expect(after?.activeDeploymentId).toBe(rolledBack?.id);
      expect(error.message).toContain(`deployment ${failedDeployment?.id}`);
      expect(error.message).toContain("Back-off restarting failed container");
      expect(error.message).toContain(`rolled back to deployment ${rolledBack?.id}`);
      const live = await emu.client.getAgent("rollback-bot");
      expect(live.ready && live.activeDeploymentReady).toBe(true);
      expect(await imageAtService()).toBe(GOOD);
      expect(kept).toMatchObject({ image: GOOD, activeDeploymentId: rolledBack?.id, ready: true });
      expect(kept?.["__pending"]).toBeUndefined();
      expect((await p.diff("rollback-bot", kept ?? {}, next)).changed).toContain("image");
      const fixed = await p.update("rollback-bot", kept ?? {}, await p.check({ ...base, image: "registry.example.com/bot:2" }));
      expect(fixed.outs).toMatchObject({ ready: true });
      expect(await imageAtService()).toBe("registry.example.com/bot:2");
    }));

  it("rolls back a deployment whose health check finds a line, quoting the line", () =>
    withCase(cell, "health-bot", async ({ p, summary, imageAtService, ready }) => {
      const base = { serviceName: "health-bot", image: GOOD, onFailure: "rollback", healthCheck: { failOnLogQuery: "panic", watchSeconds: 2 } };
      const first = await ready(base);
      const { error, kept } = await failed(p.update("health-bot", first, await p.check({ ...base, image: UNHEALTHY })));
      const after = await summary();
      const unhealthy = after?.deployments.find((d) => d.image === UNHEALTHY);
      expect(error.message).toContain(`panic: voice pipeline lost its model connection in deployment ${unhealthy?.id}`);
      expect(error.message).toContain('healthCheck.failOnLogQuery "panic"');
      expect(after?.activeDeploymentId).not.toBe(unhealthy?.id);
      expect(await imageAtService()).toBe(GOOD);
      expect(kept).toMatchObject({ image: GOOD, activeDeploymentId: after?.activeDeploymentId });
    }));

  it("passes a clean update although the old deployment logged the line its health check looks for", () =>
    withCase(cell, "old-panic-bot", async ({ p, emu, summary, imageAtService, ready }) => {
      const base = { serviceName: "old-panic-bot", image: UNHEALTHY, onFailure: "rollback" };
      const first = await ready(base);
      const old = String((await summary())?.activeDeploymentId);
      while ((await emu.client.getAgentLogs({ agentName: "old-panic-bot", deploymentId: old, query: "panic" })).total.value === 0) await new Promise((r) => setTimeout(r, 50));
      const next = await p.check({ ...base, image: GOOD, healthCheck: { failOnLogQuery: "panic", watchSeconds: 1 } });
      const { outs } = await p.update("old-panic-bot", first, next);
      const live = await emu.client.getAgent("old-panic-bot");
      expect(live.activeDeploymentId).not.toBe(old);
      expect(await imageAtService()).toBe(GOOD);
      expect(outs).toMatchObject({ activeDeploymentId: live.activeDeploymentId, ready: true, manifest: { spec: { image: GOOD } } });
      if (rolling) expect(outs).toMatchObject({ desiredDeploymentId: live.activeDeploymentId, available: true });
      else expect(outs).not.toHaveProperty("desiredDeploymentId");
    }));

  it("a failed create with rollback leaves nothing at the service and nothing in the state", () =>
    withCase(cell, "doomed-bot", async ({ p, summary }) => {
      const { error, kept } = await failed(p.create(await p.check({ serviceName: "doomed-bot", image: NEVER_READY, readyTimeoutSeconds: 2, onFailure: "rollback" })));
      expect(error.message).toContain("Back-off restarting failed container");
      expect(error.message).toContain('deleted agent "doomed-bot"');
      expect(await summary()).toBeUndefined();
      expect(kept).toBeUndefined();
    }));

  it("keep (the default) leaves a never-ready update in place and in the state; the next diff says so and the next update waits for it again", () =>
    withCase(cell, "keep-bot", async ({ p, summary, ready }) => {
      const base = { serviceName: "keep-bot", image: GOOD, readyTimeoutSeconds: 3 };
      const first = await ready(base);
      const next = await p.check({ ...base, image: NEVER_READY });
      const { error, kept } = await failed(p.update("keep-bot", first, next));
      const after = await summary();
      expect(after?.deployments).toHaveLength(2);
      const [firstDeployment, failedDeployment] = after?.deployments ?? [];
      // The error quotes the failed deployment's own log lines, never the serving one's.
      expect(error.message).toContain(`Back-off restarting failed container agent in deployment ${failedDeployment?.id}`);
      expect(error.message).not.toContain(`deployment ${firstDeployment?.id} is accepting sessions`);
      if (rolling) {
        // The failed deployment never serves: the old one does, and the state records both.
        expect(after?.activeDeploymentId).toBe(firstDeployment?.id);
        expect(error.message).toContain(`onFailure "keep": deployment ${failedDeployment?.id} stays wanted at the service, which keeps serving deployment ${firstDeployment?.id}`);
        expect(kept).toMatchObject({ image: NEVER_READY, activeDeploymentId: firstDeployment?.id, desiredDeploymentId: failedDeployment?.id, available: true, __pending: "update" });
      } else {
        expect(after?.activeDeploymentId).toBe(failedDeployment?.id);
        expect(kept).toMatchObject({ image: NEVER_READY, activeDeploymentId: failedDeployment?.id, __pending: "update" });
      }
      // The engine updates a resource whose last step failed again; the diff's line names the unfinished update's deployment
      // (on a rolling service, the pending one). The next update waits for it again and fails again.
      await p.diff("keep-bot", kept ?? {}, next);
      expect(p.messages().join("\n")).toContain(`the update of an earlier \`pulumi up\` did not finish (deployment ${failedDeployment?.id}, image ${NEVER_READY})`);
      const again = await failed(p.update("keep-bot", kept ?? {}, next));
      expect(again.error.message).toMatch(/did not become ready/);
      expect(again.error.message).toContain(`Back-off restarting failed container agent in deployment ${failedDeployment?.id}`);
      expect((await summary())?.deployments).toHaveLength(2);
    }));

  it("keep leaves a deployment whose health check finds a line running and in the state; onFailure rollback then goes back", () =>
    withCase(cell, "kept-health-bot", async ({ p, emu, summary, imageAtService, ready }) => {
      const base = { serviceName: "kept-health-bot", image: GOOD, healthCheck: { failOnLogQuery: "panic", watchSeconds: 2 } };
      const first = await ready(base);
      const before = (await summary())?.activeDeploymentId;
      const next = await p.check({ ...base, image: UNHEALTHY });
      const { error, kept } = await failed(p.update("kept-health-bot", first, next));
      const unhealthy = (await summary())?.deployments[1];
      expect(unhealthy?.image).toBe(UNHEALTHY);
      expect(error.message).toContain(`panic: voice pipeline lost its model connection in deployment ${unhealthy?.id}`);
      expect(error.message).toContain(`onFailure "keep": deployment ${unhealthy?.id} stays in place at the service.`);
      expect(error.message).toContain(`To go back to the last ready spec (image ${GOOD}, deployment ${before}), set onFailure: "rollback" and run \`pulumi up\``);
      const live = await emu.client.getAgent("kept-health-bot");
      expect(live.ready && live.activeDeploymentId === unhealthy?.id).toBe(true);
      expect(kept).toMatchObject({ image: UNHEALTHY, activeDeploymentId: unhealthy?.id, __pending: "update", __lastReady: { deploymentId: before, spec: { image: GOOD } } });

      await p.diff("kept-health-bot", kept ?? {}, next);
      expect(p.messages().join("\n")).toContain(`the update of an earlier \`pulumi up\` did not finish (deployment ${unhealthy?.id}, image ${UNHEALTHY}); \`pulumi up\` checks on it again`);
      const back = await failed(p.update("kept-health-bot", kept ?? {}, await p.check({ ...base, image: UNHEALTHY, onFailure: "rollback" })));
      const rolledBack = await summary();
      expect(rolledBack?.deployments).toHaveLength(3);
      expect(back.error.message).toContain(`rolled back to deployment ${rolledBack?.activeDeploymentId}`);
      expect(await imageAtService()).toBe(GOOD);
      expect(back.kept).toMatchObject({ image: GOOD, activeDeploymentId: rolledBack?.activeDeploymentId });
    }));

  it("the engine's timeout (customTimeouts.update) ends the wait before readyTimeoutSeconds; kept, the next update waits for the same deployment", () =>
    withCase(cell, "timeout-bot", async ({ p, summary, ready }) => {
      const base = { serviceName: "timeout-bot", image: GOOD, readyTimeoutSeconds: 120 };
      const first = await ready(base);
      const next = await p.check({ ...base, image: NEVER_READY });
      const { error, kept } = await failed(p.update("timeout-bot", first, next, { timeoutMs: 1_500 }));
      expect(error.message).toMatch(/did not become ready within 2 s after update/);
      expect(error.message).toContain("customTimeouts.update");
      const after = await summary();
      expect(after?.deployments).toHaveLength(2);
      const [firstDeployment, failedDeployment] = after?.deployments ?? [];
      expect(after?.activeDeploymentId).toBe(rolling ? firstDeployment?.id : failedDeployment?.id);
      expect(error.message).toContain(`Back-off restarting failed container agent in deployment ${failedDeployment?.id}`);
      expect(kept).toMatchObject({
        image: NEVER_READY,
        activeDeploymentId: after?.activeDeploymentId,
        ...(rolling ? { desiredDeploymentId: failedDeployment?.id, available: true } : {}),
        __pending: "update",
      });
      const again = await failed(p.update("timeout-bot", kept ?? {}, next, { timeoutMs: 1_500 }));
      expect(again.error.message).toMatch(/did not become ready within 2 s after update/);
      expect((await summary())?.deployments).toHaveLength(2);
    }));

  it("the engine's timeout (customTimeouts.create) ends a never-ready create's wait; the agent stays in the state, and a good image converges", () =>
    withCase(cell, "slow-create-bot", async ({ p, emu, summary }) => {
      const base = { serviceName: "slow-create-bot", readyTimeoutSeconds: 120 };
      const { error, kept } = await failed(p.create(await p.check({ ...base, image: NEVER_READY }), { timeoutMs: 1_500 }));
      expect(error.message).toMatch(/did not become ready within 2 s after create/);
      expect(error.message).toContain("The wait ended at the engine's customTimeouts.create (2 s), before readyTimeoutSeconds (120 s).");
      expect(error.message).toContain("Fix the image, or raise customTimeouts.create.");
      const created = await summary();
      expect(created?.deployments).toHaveLength(1);
      expect(kept).toMatchObject({ image: NEVER_READY, activeDeploymentId: created?.activeDeploymentId, __pending: "create" });
      const good = await p.check({ ...base, image: GOOD });
      expect((await p.diff("slow-create-bot", kept ?? {}, good)).changed).toEqual(["image"]);
      const { outs } = await p.update("slow-create-bot", kept ?? {}, good, { timeoutMs: 30_000 });
      expect((await emu.control.listAgents()).agents.filter((a) => a.name.startsWith("slow-create-bot"))).toHaveLength(1);
      expect((await emu.client.getAgent("slow-create-bot")).ready).toBe(true);
      expect(outs).toMatchObject({ image: GOOD, ready: true });
      expect(outs["__pending"]).toBeUndefined();
    }));

  /**
   * A ready agent of `base` (onFailure rollback), then the update to a never-ready image, cancelled once the
   * service holds `deployments` deployments of the agent (`beforeCancel` runs just before): the failed update.
   */
  async function cancelledUpdate(c: Case, base: Props & { serviceName: string }, deployments: number, beforeCancel: () => Promise<unknown> = async () => undefined) {
    const first = await c.ready(base);
    const next = await c.p.check({ ...base, image: NEVER_READY });
    const running = c.p.update(base.serviceName, first, next);
    while (((await c.summary())?.deployments.length ?? 0) < deployments) await new Promise((r) => setTimeout(r, 20));
    await beforeCancel();
    c.p.cancel("SIGINT");
    return { next, ...(await failed(running)) };
  }

  it("a cancel while the rollback's deployment starts leaves a state describing a deployment that exists; the next update converges with one agent", () =>
    withCase(cell, "sigint-bot", async (c) => {
      const base = { serviceName: "sigint-bot", image: GOOD, readyTimeoutSeconds: 3, onFailure: "rollback" };
      // The rollback's polls answer slowly, so the cancel lands while the provider waits for its deployment.
      const { next, error, kept } = await cancelledUpdate(c, base, 3, () => c.emu.control.injectFault({ method: "GET", path: "/v1/agents/sigint-bot", kind: "delay", delayMs: 1_500, count: 2 }));
      await c.emu.control.clearFaults();
      const atService = await c.summary();
      const rollbackDeployment = atService?.deployments[2];
      expect(error.message).toContain(`the update back to the last ready spec (deployment ${rollbackDeployment?.id}) was sent, but then failed: the provider process received SIGINT`);
      const recorded = rolling ? { activeDeploymentId: atService?.deployments[0]?.id, desiredDeploymentId: rollbackDeployment?.id } : { activeDeploymentId: rollbackDeployment?.id };
      expect(kept).toMatchObject({ image: GOOD, ...recorded, __pending: "rollback" });

      const after = providerSession(c.emu.url, API_KEY);
      const again = await failed(after.update("sigint-bot", kept ?? {}, next));
      expect(again.error.message).toMatch(/sigint-bot/);
      expect((await c.emu.control.listAgents()).agents.filter((a) => a.name.startsWith("sigint-bot"))).toHaveLength(1);
      expect(await c.imageAtService()).toBe(GOOD);
      const live = await c.emu.client.getAgent("sigint-bot");
      expect(live.ready).toBe(true);
      expect(again.kept).toMatchObject({ image: GOOD, activeDeploymentId: live.activeDeploymentId });
    }));

  it("a cancel while the new deployment is awaited keeps the spec it replaced; the next update finds it failed and rolls back to that spec", () =>
    withCase(cell, "early-bot", async (c) => {
      const base = { serviceName: "early-bot", image: GOOD, readyTimeoutSeconds: 3, onFailure: "rollback" };
      const { next, error, kept } = await cancelledUpdate(c, base, 2);
      const [firstDeployment, failedDeployment] = (await c.summary())?.deployments ?? [];
      expect(error.message).toContain("the update was sent, but then failed: the provider process received SIGINT");
      const serving = rolling ? { activeDeploymentId: firstDeployment?.id, desiredDeploymentId: failedDeployment?.id } : { activeDeploymentId: failedDeployment?.id };
      expect(kept).toMatchObject({ image: NEVER_READY, ...serving, __pending: "update", __lastReady: { spec: { image: GOOD } } });

      const after = providerSession(c.emu.url, API_KEY);
      const again = await failed(after.update("early-bot", kept ?? {}, next));
      const summary = await c.summary();
      expect(summary?.deployments).toHaveLength(3);
      expect(again.error.message).toContain(`deployment ${failedDeployment?.id}`);
      expect(again.error.message).toContain(`rolled back to deployment ${summary?.activeDeploymentId}`);
      expect(await c.imageAtService()).toBe(GOOD);
      expect(again.kept).toMatchObject({ image: GOOD, activeDeploymentId: summary?.activeDeploymentId });
    }));

  it("a cancelled update whose agent is rescaled outside Pulumi meanwhile: the next update finds its deployment ready and sends the program's scaling again", () =>
    withCase(cell, "rescaled-bot", async (c) => {
      const scaling = { minAgents: 2, maxAgents: 4 };
      const base = { serviceName: "rescaled-bot", image: GOOD, autoScaling: scaling, readyTimeoutSeconds: 30 };
      const first = await c.ready(base);
      const next = await c.p.check({ ...base, image: "registry.example.com/bot:2" });
      const running = c.p.update("rescaled-bot", first, next);
      while (((await c.summary())?.deployments.length ?? 0) < 2) await new Promise((r) => setTimeout(r, 20));
      c.p.cancel("SIGINT");
      const { kept } = await failed(running);
      expect(kept).toMatchObject({ image: "registry.example.com/bot:2", __pending: "update" });
      // The campaign's outside-scale (test/campaign/compound-steps.ts): the same image, other scaling, applied to the pending deployment in place.
      await c.emu.raw("POST", "/v1/agents/rescaled-bot", { json: { image: "registry.example.com/bot:2", autoScaling: { minAgents: 1, maxAgents: 4 } } });
      const after = providerSession(c.emu.url, API_KEY);
      const { outs } = await after.update("rescaled-bot", kept ?? {}, next);
      expect(after.messages().join("\n")).toContain("but its autoScaling at the service differ from the program (changed outside Pulumi since); sending the program's spec");
      const live = await c.emu.client.getAgent("rescaled-bot");
      expect(live.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 4 });
      expect(live.ready).toBe(true);
      expect(outs).toMatchObject({ image: "registry.example.com/bot:2", autoScaling: { minReplicas: 2, maxReplicas: 4 }, activeDeploymentId: live.activeDeploymentId });
      expect(outs["__pending"]).toBeUndefined();
      expect((await after.diff("rescaled-bot", outs, next)).changes).toBe(false);
    }));
});
