/**
 * When a deployment fails, on the dynamic provider through the real CLI (the
 * Automation API, a preview before every up), on the emulator's own reading:
 * updates roll (the old deployment serves until the new one validates);
 * test/integration/matrix-failures.test.ts runs each case through the
 * provider core on every reading and rollout. A
 * never-ready update rolled back, a health check's line rolled back, a clean
 * update passing although the old deployment logged that line, keep leaving
 * the failed deployment (never ready, or unhealthy) in place, a failed create
 * rolled back to nothing, and a SIGINT during a wait or a rollback that the
 * next up converges from; and a never-ready create kept in the state, which
 * the next up waits for again.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator-fixture";
import { useStacks } from "./support/e2e-fixture";
import { exportedState, type OpResult, type StackHandle } from "./support/stack";
import { providerProcessesIn } from "./support/provider-processes";
import { agentsInState } from "./support/secrets";
import { succeeded } from "./support/succeeded";

const API_KEY = "e2e-FAILURES-key-7d20";
const GOOD = "registry.example.com/bot:1";
const NEVER_READY = "registry.example.com/bot:fail";
const UNHEALTHY = "registry.example.com/bot:unhealthy";

const makeStack = useStacks();

describe("a rolling service", () => {
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 300 });

  const newStack = (name: string): StackHandle => makeStack(`failures-${name}`, { baseUrl: fx.emulator.url, apiKey: API_KEY });

  const one = (args: Record<string, unknown>) => ({ agents: [{ resource: "bot", args }] });

  /**
   * An up as `pulumi up` runs it: the CLI's preview, which must pass, then the update; that preview's
   * summary, its part of the engine's output (up to the update's "Updating (dev):"), and the up's result.
   */
  async function previewThenUp(stack: StackHandle, params: unknown): Promise<{ preview: { changeSummary: Record<string, number>; output: string }; up: OpResult }> {
    const up = await stack.run("up", { params });
    expect(up.previewChangeSummary, `the up's preview failed: ${up.error}`).toBeDefined();
    const [output = "", update] = up.engineOutput.split(/^Updating \(/m);
    expect(update, `no update after the up's preview:\n${up.engineOutput}`).toBeDefined();
    return { preview: { changeSummary: up.previewChangeSummary ?? {}, output }, up };
  }

  /** The Agent's outputs as the stack's state holds them; undefined when the state holds no Agent (a failed export throws). */
  async function stateOf(stack: StackHandle): Promise<Record<string, unknown> | undefined> {
    const resources = (await exportedState(stack)).deployment?.resources ?? [];
    const agent = resources.find((r) => String(r["type"]).endsWith(":Agent")) as { outputs?: Record<string, unknown> } | undefined;
    return agent?.outputs;
  }

  async function summaryOf(name: string) {
    return (await fx.control.listAgents()).agents.find((a) => a.name === name);
  }

  const imageAtService = async (name: string) => (await fx.client.getAgent(name)).deployment?.manifest?.["spec"]?.["image" as never];

  describe("onFailure: rollback on the dynamic provider", () => {
    it("rolls a never-ready update back to the last ready spec; the state says so and the next preview shows the change again", async () => {
      const stack = newStack("rollback");
      const base = { serviceName: "rollback-bot", image: GOOD, readyTimeoutSeconds: 2, onFailure: "rollback" };
      const first = await previewThenUp(stack, one(base));
      expect(first.up.ok, first.up.error).toBe(true);
      const before = await summaryOf("rollback-bot");

      const { preview, up } = await previewThenUp(stack, one({ ...base, image: NEVER_READY }));
      expect(preview.changeSummary).toMatchObject({ update: 1 });
      expect(up.ok).toBe(false);
      const after = await summaryOf("rollback-bot");
      const [, failed, rolledBack] = after?.deployments ?? [];
      expect(after?.deployments).toHaveLength(3);
      expect(failed?.image).toBe(NEVER_READY);
      expect(rolledBack?.image).toBe(GOOD);
      expect(after?.activeDeploymentId).toBe(rolledBack?.id);
      expect(before?.deployments[0]?.id).not.toBe(rolledBack?.id);
      expect(up.error).toContain(`deployment ${failed?.id}`);
      expect(up.error).toContain("Back-off restarting failed container");
      expect(up.error).toContain(`rolled back to deployment ${rolledBack?.id}`);

      // The service runs the old image again, ready; the state describes that deployment.
      const live = await fx.client.getAgent("rollback-bot");
      expect(live.ready && live.activeDeploymentReady).toBe(true);
      expect(await imageAtService("rollback-bot")).toBe(GOOD);
      const state = await stateOf(stack);
      expect(state).toMatchObject({ image: GOOD, activeDeploymentId: rolledBack?.id, ready: true });
      expect(state?.["__pending"]).toBeUndefined();

      // The next preview shows the wanted change again; fixed, up makes it.
      const again = await stack.run("preview", { params: one({ ...base, image: NEVER_READY }) });
      expect(again.changeSummary).toMatchObject({ update: 1 });
      const fixed = await previewThenUp(stack, one({ ...base, image: "registry.example.com/bot:2" }));
      expect(fixed.up.ok, fixed.up.error).toBe(true);
      expect(await imageAtService("rollback-bot")).toBe("registry.example.com/bot:2");
    });

    it("rolls back a deployment whose health check finds a line, quoting the line", async () => {
      const stack = newStack("health");
      const base = { serviceName: "health-bot", image: GOOD, onFailure: "rollback", healthCheck: { failOnLogQuery: "panic", watchSeconds: 3 } };
      succeeded((await previewThenUp(stack, one(base))).up);

      const { up } = await previewThenUp(stack, one({ ...base, image: UNHEALTHY }));
      expect(up.ok).toBe(false);
      const after = await summaryOf("health-bot");
      const failed = after?.deployments.find((d) => d.image === UNHEALTHY);
      expect(up.error).toContain(`panic: voice pipeline lost its model connection in deployment ${failed?.id}`);
      expect(up.error).toContain('healthCheck.failOnLogQuery "panic"');
      expect(after?.activeDeploymentId).not.toBe(failed?.id);
      expect(await imageAtService("health-bot")).toBe(GOOD);
      expect(await stateOf(stack)).toMatchObject({ image: GOOD, activeDeploymentId: after?.activeDeploymentId });
    });

    it("passes a clean update although the old deployment logged the line its health check looks for", async () => {
      const stack = newStack("old-panic");
      // The first deployment panics after it is ready: a line under its own id.
      const base = { serviceName: "old-panic-bot", image: UNHEALTHY, onFailure: "rollback" };
      succeeded((await previewThenUp(stack, one(base))).up);
      const old = String((await summaryOf("old-panic-bot"))?.activeDeploymentId);
      while ((await fx.client.getAgentLogs({ agentName: "old-panic-bot", deploymentId: old, query: "panic" })).total.value === 0) await new Promise((r) => setTimeout(r, 100));

      const { up } = await previewThenUp(stack, one({ ...base, image: GOOD, healthCheck: { failOnLogQuery: "panic", watchSeconds: 2 } }));
      expect(up.ok, up.error).toBe(true);
      const live = await fx.client.getAgent("old-panic-bot");
      expect(live.activeDeploymentId).not.toBe(old);
      expect(await imageAtService("old-panic-bot")).toBe(GOOD);
      expect(up.outputs["bot"]).toMatchObject({ activeDeploymentId: live.activeDeploymentId, ready: true, manifest: { spec: { image: GOOD } } });
      expect(up.outputs["bot"]).toMatchObject({ desiredDeploymentId: live.activeDeploymentId, available: true });
    });

    it("a failed create with rollback leaves nothing at the service and nothing in the state", async () => {
      const stack = newStack("create");
      const { up } = await previewThenUp(stack, one({ serviceName: "doomed-bot", image: NEVER_READY, readyTimeoutSeconds: 2, onFailure: "rollback" }));
      expect(up.ok).toBe(false);
      expect(up.error).toContain("Back-off restarting failed container");
      expect(up.error).toContain('deleted agent "doomed-bot"');
      expect(await summaryOf("doomed-bot")).toBeUndefined();
      expect(await stateOf(stack)).toBeUndefined();
    });
  });

  describe("onFailure: keep (the default) on the dynamic provider", () => {
    it("leaves the failed deployment in place and in the state; the next up waits for it again", async () => {
      const stack = newStack("keep");
      const base = { serviceName: "keep-bot", image: GOOD, readyTimeoutSeconds: 2 };
      succeeded((await previewThenUp(stack, one(base))).up);
      const { up } = await previewThenUp(stack, one({ ...base, image: NEVER_READY }));
      expect(up.ok).toBe(false);
      const after = await summaryOf("keep-bot");
      expect(after?.deployments).toHaveLength(2);
      const [first, failed] = after?.deployments ?? [];
      // The error quotes the failed deployment's own log lines, never the serving one's.
      expect(up.error).toContain(`Back-off restarting failed container agent in deployment ${failed?.id}`);
      expect(up.error).not.toContain(`deployment ${first?.id} is accepting sessions`);
      // The failed deployment never serves: the old one does, and the state records both.
      expect(after?.activeDeploymentId).toBe(first?.id);
      expect(up.error).toContain(`onFailure "keep": deployment ${failed?.id} stays wanted at the service, which keeps serving deployment ${first?.id}`);
      expect(await stateOf(stack)).toMatchObject({ image: NEVER_READY, activeDeploymentId: first?.id, desiredDeploymentId: failed?.id, available: true, __pending: "update" });
      // The next up's own preview shows the unfinished update on the pending deployment (its row, in the CLI's default display); the up waits for it again and fails again.
      const again = await previewThenUp(stack, one({ ...base, image: NEVER_READY }));
      expect(again.preview.changeSummary).toMatchObject({ update: 1 });
      expect(again.preview.output).toContain(`the update of an earlier \`pulumi up\` did not finish (deployment ${failed?.id}, image ${NEVER_READY})`);
      expect(again.up.ok).toBe(false);
      expect(again.up.error).toMatch(/did not become ready/);
      expect(again.up.error).toContain(`Back-off restarting failed container agent in deployment ${failed?.id}`);
      expect((await summaryOf("keep-bot"))?.deployments).toHaveLength(2);
    });

    it("keeps a deployment whose health check finds a line: the service runs it, the state describes it, and onFailure rollback then goes back", async () => {
      const stack = newStack("keep-health");
      const base = { serviceName: "kept-health-bot", image: GOOD, healthCheck: { failOnLogQuery: "panic", watchSeconds: 3 } };
      succeeded((await previewThenUp(stack, one(base))).up);
      const before = (await summaryOf("kept-health-bot"))?.activeDeploymentId;
      const params = one({ ...base, image: UNHEALTHY });
      const { up } = await previewThenUp(stack, params);
      expect(up.ok).toBe(false);
      const after = await summaryOf("kept-health-bot");
      const failed = after?.deployments[1];
      expect(failed?.image).toBe(UNHEALTHY);
      expect(up.error).toContain(`panic: voice pipeline lost its model connection in deployment ${failed?.id}`);
      expect(up.error).toContain(`onFailure "keep": deployment ${failed?.id} stays in place at the service.`);
      expect(up.error).toContain(`To go back to the last ready spec (image ${GOOD}, deployment ${before}), set onFailure: "rollback" and run \`pulumi up\``);
      // The service runs the kept deployment, ready; the state describes it, unfinished, with the spec it replaced.
      const live = await fx.client.getAgent("kept-health-bot");
      expect(live.ready && live.activeDeploymentId === failed?.id).toBe(true);
      expect(await stateOf(stack)).toMatchObject({ image: UNHEALTHY, activeDeploymentId: failed?.id, __pending: "update", __lastReady: { deploymentId: before, spec: { image: GOOD } } });

      // The next preview: the unfinished update is updated again, and the row says why.
      const again = await stack.run("preview", { params, noDiff: true });
      expect(again.changeSummary).toMatchObject({ update: 1 });
      expect(again.engineOutput).toContain(`the update of an earlier \`pulumi up\` did not finish (deployment ${failed?.id}, image ${UNHEALTHY}); \`pulumi up\` checks on it again`);
      // As the error says: onFailure "rollback", and up goes back to the last ready spec.
      const back = await previewThenUp(stack, one({ ...base, image: UNHEALTHY, onFailure: "rollback" }));
      expect(back.up.ok).toBe(false);
      const rolledBack = await summaryOf("kept-health-bot");
      expect(rolledBack?.deployments).toHaveLength(3);
      expect(back.up.error).toContain(`rolled back to deployment ${rolledBack?.activeDeploymentId}`);
      expect(await imageAtService("kept-health-bot")).toBe(GOOD);
      expect(await stateOf(stack)).toMatchObject({ image: GOOD, activeDeploymentId: rolledBack?.activeDeploymentId });
    });
  });

  /**
   * A ready agent of `base` (with onFailure: rollback) made by an up, then the up of the update to a
   * never-ready image (its own preview checked), its provider sent SIGINT once the service holds `deployments`
   * deployments of the agent (`beforeSignal` runs just before): the update's params and the failed up.
   */
  async function interruptedUpdate(
    stack: StackHandle,
    base: Record<string, unknown> & { serviceName: string },
    deployments: number,
    beforeSignal: () => Promise<unknown> = async () => undefined,
  ): Promise<{ params: ReturnType<typeof one>; interrupted: OpResult }> {
    succeeded((await previewThenUp(stack, one(base))).up);
    const params = one({ ...base, image: NEVER_READY });
    const running = stack.run("up", { params });
    while (((await summaryOf(base.serviceName))?.deployments.length ?? 0) < deployments) await new Promise((r) => setTimeout(r, 20));
    await beforeSignal();
    for (const pid of providerProcessesIn(stack.workDir)) process.kill(pid, "SIGINT");
    const interrupted = await running;
    expect(interrupted.ok).toBe(false);
    // The up's own preview finished before its update began: the signal came during the update.
    expect(interrupted.previewChangeSummary, `${interrupted.error ?? ""}\n${interrupted.engineOutput}`).toMatchObject({ update: 1 });
    return { params, interrupted };
  }

  describe("interrupted during a rollback", () => {
    it("SIGINT while the rollback's deployment starts leaves a state that describes a deployment that exists; the next up converges with one agent", async () => {
      const stack = newStack("sigint");
      const base = { serviceName: "sigint-bot", image: GOOD, readyTimeoutSeconds: 2, onFailure: "rollback" };
      // The rollback's polls answer slowly, so the signal lands while the provider waits for its deployment.
      const { params, interrupted } = await interruptedUpdate(stack, base, 3, () =>
        fx.control.injectFault({ method: "GET", path: "/v1/agents/sigint-bot", kind: "delay", delayMs: 3_000, count: 2 }),
      );
      await fx.control.clearFaults();

      const atService = await summaryOf("sigint-bot");
      const rollbackDeployment = atService?.deployments[2];
      expect(interrupted.error).toContain(`the update back to the last ready spec (deployment ${rollbackDeployment?.id}) was sent, but then failed: the provider process received SIGINT`);
      // The state describes the rollback's deployment, which exists, as an unfinished rollback to the last ready spec.
      const state = await stateOf(stack);
      expect(state).toMatchObject({ image: GOOD, activeDeploymentId: atService?.deployments[0]?.id, desiredDeploymentId: rollbackDeployment?.id, __pending: "rollback" });

      const { up } = await previewThenUp(stack, params);
      expect(up.ok).toBe(false);
      const agents = (await fx.control.listAgents()).agents.filter((a) => a.name.startsWith("sigint-bot"));
      expect(agents).toHaveLength(1);
      expect(await imageAtService("sigint-bot")).toBe(GOOD);
      const live = await fx.client.getAgent("sigint-bot");
      expect(live.ready).toBe(true);
      expect(await stateOf(stack)).toMatchObject({ image: GOOD, activeDeploymentId: live.activeDeploymentId });
    });

    it("SIGINT while the new deployment is awaited keeps the spec it replaced; the next up finds it failed and rolls back to that spec", async () => {
      const stack = newStack("sigint-early");
      const base = { serviceName: "early-bot", image: GOOD, readyTimeoutSeconds: 3, onFailure: "rollback" };
      const { params, interrupted } = await interruptedUpdate(stack, base, 2);
      const failed = (await summaryOf("early-bot"))?.deployments[1];
      expect(interrupted.error).toContain("the update was sent, but then failed: the provider process received SIGINT");
      // The state describes the deployment that exists, unfinished, and keeps the spec it replaced.
      const serving = { activeDeploymentId: (await summaryOf("early-bot"))?.deployments[0]?.id, desiredDeploymentId: failed?.id };
      expect(await stateOf(stack)).toMatchObject({ image: NEVER_READY, ...serving, __pending: "update", __lastReady: { spec: { image: GOOD } } });

      // The same program again: the provider waits for that deployment, finds it failed, and rolls back.
      const { up } = await previewThenUp(stack, params);
      expect(up.ok).toBe(false);
      const after = await summaryOf("early-bot");
      expect(after?.deployments).toHaveLength(3);
      expect(up.error).toContain(`deployment ${failed?.id}`);
      expect(up.error).toContain(`rolled back to deployment ${after?.activeDeploymentId}`);
      expect(await imageAtService("early-bot")).toBe(GOOD);
      expect(await stateOf(stack)).toMatchObject({ image: GOOD, activeDeploymentId: after?.activeDeploymentId });
    });
  });
});

describe("a create that never becomes ready, kept (onFailure keep, the default)", () => {
  // A create has no earlier deployment to serve, so both rollouts of an update behave alike.
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 300 });

  it("fails up with the agent, its timeout and its log lines, stays in the state; the next up waits for it again instead of creating it twice", async () => {
    const stack = makeStack("failures-create-keep", { baseUrl: fx.emulator.url, apiKey: API_KEY });
    const params = { agents: [{ resource: "broken", args: { serviceName: "broken-bot", image: NEVER_READY, readyTimeoutSeconds: 2 } }] };
    const up = await stack.run("up", { params });
    // A new stack, previewed first: the up's own preview.
    expect(up.previewChangeSummary).toMatchObject({ create: 2 });
    expect(up.ok).toBe(false);
    expect(up.error).toMatch(/agent "broken-bot" did not become ready within 2 s after create/);
    expect(up.error).toMatch(/newest log lines:/);
    expect(up.error).toContain("Back-off restarting failed container");
    expect(`${up.error}\n${up.engineOutput}`).not.toContain(API_KEY);
    expect(await agentsInState(stack)).toEqual(["broken-bot"]);

    const again = await stack.run("up", { params });
    expect(again.previewChangeSummary, `the up's preview failed: ${again.error}`).toBeDefined();
    expect(again.ok).toBe(false);
    expect(again.error).toMatch(/did not become ready/);
    expect((await fx.control.stats()).byRoute["POST /v1/agents"]).toBe(1);
    succeeded(await stack.run("destroy"));
    expect((await fx.control.listAgents()).agents.map((a) => a.name)).toEqual([]);
  });
});
