/**
 * test/e2e/safety.test.ts's behaviours that talk to the service, on every
 * reading and rollout, through the provider core in process: nothing
 * silently reset, a settings-only change sending nothing, redeployTrigger,
 * a secret image secret in every output that reflects it, nothing orphaned
 * (a GET outage, a 401 after the create, a cancel during the wait), a name
 * taken never taken over, secret sets checked at check, live sessions at
 * delete, and the wait's signs of life. The CLI runs each once, on the
 * emulator's own reading (test/e2e/safety.test.ts); its preview-only case
 * (a follower of bot.name unchanged) asks the service nothing.
 */
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/client/errors";
import { isPartialFailure } from "../../src/core/partial-failure";
import { SECRET_SIGNATURE, SIGNATURE_KEY } from "../../src/core/engine-sentinels";
import { startEmu, useEmulator } from "../support/emulator-fixture";
import { specOf } from "../support/fixtures";
import { providerSession } from "./support/provider-session";
import { READING_MATRIX, reportsSessions } from "./support/reading-matrix";

const API_KEY = "matrix-SAFETY-key-2b77";
const IMAGE = "registry.example.com/bot:1";

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe.concurrent.each(READING_MATRIX)("safety through the provider core ($reading reading, $rollout rollout)", (cell) => {
  const fx = useEmulator({ ...cell, apiKey: API_KEY, readyAfterMs: 150, secretSets: { "voice-secrets": ["TOKEN"] } });
  const session = () => providerSession(fx.emulator.url, API_KEY);
  // The requests about one agent (the tests beside it post their own creates to /v1/agents).
  const requestsTo = async (name: string) => (await fx.control.requests()).requests.filter((r) => r.path === `/v1/agents/${name}`);

  it("an update that drops autoScaling and bumps the image keeps the agent's scaling", async () => {
    const p = session();
    const base = { serviceName: "keep-scaling", image: IMAGE, autoScaling: { minAgents: 2, maxAgents: 5 } };
    const { outs } = await p.create(await p.check(base));
    const { autoScaling: _dropped, ...withoutScaling } = base;
    const next = await p.check({ ...withoutScaling, image: "registry.example.com/bot:2" });
    expect((await p.diff("keep-scaling", outs, next)).changed).toEqual(["image"]);
    const updated = (await p.update("keep-scaling", outs, next)).outs;
    const live = await fx.client.getAgent("keep-scaling");
    expect(live.autoScaling).toMatchObject({ minReplicas: 2, maxReplicas: 5 });
    expect(specOf(live)["image"]).toBe("registry.example.com/bot:2");
    expect((await p.diff("keep-scaling", updated, next)).changes).toBe(false);
  });

  it("a secret set removed from the program is cleared at the service, and the diff shows it", async () => {
    const p = session();
    const base = { serviceName: "clear-set", image: IMAGE, secretSet: "voice-secrets" };
    const { outs } = await p.create(await p.check(base));
    const { secretSet: _removed, ...rest } = base;
    const next = await p.check(rest);
    expect((await p.diff("clear-set", outs, next)).changed).toEqual(["secretSet"]);
    await p.update("clear-set", outs, next);
    expect(specOf(await fx.client.getAgent("clear-set"))["envFromSecretNames"] ?? []).toEqual([]);
  });

  it("a change of readyTimeoutSeconds only sends nothing to the service, and the diff's line says so", async () => {
    const p = session();
    const base = { serviceName: "settings-only", image: IMAGE };
    const { outs } = await p.create(await p.check(base));
    const next = await p.check({ ...base, readyTimeoutSeconds: 120 });
    expect(await p.diff("settings-only", outs, next)).toMatchObject({ changes: true, localOnly: true, changed: ["readyTimeoutSeconds"] });
    expect(p.messages()).toContain('agent "settings-only": only readyTimeoutSeconds changed, which the provider keeps in the state; nothing is sent to the service');
    const before = (await requestsTo("settings-only")).length;
    expect((await p.update("settings-only", outs, next)).outs).toMatchObject({ readyTimeoutSeconds: 120 });
    expect((await requestsTo("settings-only")).length).toBe(before);
  });

  it("redeployTrigger makes a new deployment of the same spec; the agent stays", async () => {
    const p = session();
    const base = { serviceName: "redeploy-bot", image: "registry.example.com/bot:latest", redeployTrigger: "push-1" };
    const { outs } = await p.create(await p.check(base));
    const next = await p.check({ ...base, redeployTrigger: "push-2" });
    expect((await p.diff("redeploy-bot", outs, next)).changed).toEqual(["redeployTrigger"]);
    const second = (await p.update("redeploy-bot", outs, next)).outs;
    expect(second["activeDeploymentId"]).not.toBe(outs["activeDeploymentId"]);
    const live = (await fx.control.listAgents()).agents.find((a) => a.name === "redeploy-bot");
    expect(live?.deployments.map((d) => d.id)).toEqual([outs["activeDeploymentId"], second["activeDeploymentId"]]);
  });

  it("a secret image is the engine's secret in every output that holds it", async () => {
    const p = session();
    const image = "registry.example.com/very-private-bot:7";
    const { outs } = await p.create(await p.check({ serviceName: "secret-image", image, __secretInputs: ["image"] }));
    // The image output is the secret input itself, which the engine keeps secret; every output derived from it is marked here.
    const derived = Object.entries(outs).filter(([key, value]) => key !== "image" && JSON.stringify(value).includes("very-private-bot"));
    expect(derived.map(([key]) => key)).toContain("manifest");
    for (const [key, value] of derived) expect((value as Record<string, unknown>)[SIGNATURE_KEY], key).toBe(SECRET_SIGNATURE);
  });

  it("a GET outage right after the create is ridden out", async () => {
    const p = session();
    await fx.control.injectFault({ method: "GET", path: "/v1/agents/outage-bot", kind: "status", status: 503, count: 10 });
    expect((await p.create(await p.check({ serviceName: "outage-bot", image: IMAGE }))).outs).toMatchObject({ ready: true });
    expect((await fx.client.getAgent("outage-bot")).ready).toBe(true);
  });

  it("a 401 after the create was sent keeps the agent in the state; the next update waits for it without posting again", async () => {
    // An emulator of its own: its POSTs are this test's.
    const own = await startEmu({ ...cell, apiKey: API_KEY, readyAfterMs: 150 });
    try {
      const p = providerSession(own.url, API_KEY);
      const inputs = await p.check({ serviceName: "rotated-bot", image: IMAGE });
      await own.control.injectFault({ method: "GET", path: "/v1/agents/rotated-bot", kind: "status", status: 401, count: 1000 });
      const failed = await failureOf(p.create(inputs));
      await own.control.clearFaults();
      expect(failed.message).toMatch(/agent "rotated-bot": the create was sent, but then failed: GET \/v1\/agents\/rotated-bot failed with 401/);
      expect(failed.message).not.toContain(API_KEY);
      expect(isPartialFailure(failed) && failed.id).toBe("rotated-bot");
      const kept = isPartialFailure(failed) ? failed.properties : {};
      expect(kept["__pending"]).toBe("create");
      const again = (await p.update("rotated-bot", kept, inputs)).outs;
      expect(again).toMatchObject({ ready: true });
      expect((await own.control.stats()).byRoute["POST /v1/agents"]).toBe(1);
      expect((await p.diff("rotated-bot", again, inputs)).changes).toBe(false);
    } finally {
      await own.close();
    }
  });

  it("a cancel during the readiness wait answers with the agent kept in the state; the next update finishes it without posting again", async () => {
    const slow = await startEmu({ ...cell, apiKey: API_KEY, readyAfterMs: 3_000 });
    try {
      const p = providerSession(slow.url, API_KEY);
      const inputs = await p.check({ serviceName: "interrupted-bot", image: IMAGE });
      const running = p.create(inputs);
      while (!(await slow.control.requests()).requests.some((r) => r.method === "GET" && r.path === "/v1/agents/interrupted-bot")) await new Promise((r) => setTimeout(r, 20));
      p.cancel("SIGINT");
      const interrupted = await failureOf(running);
      expect(interrupted.message).toContain('agent "interrupted-bot": the create was sent, but then failed: the provider process received SIGINT');
      const kept = isPartialFailure(interrupted) ? interrupted.properties : {};
      expect(kept).toMatchObject({ name: "interrupted-bot", __pending: "create" });
      // The next run's provider, a new instance, waits for the same agent.
      const next = providerSession(slow.url, API_KEY);
      expect((await next.update("interrupted-bot", kept, inputs)).outs).toMatchObject({ ready: true });
      expect((await slow.control.stats()).byRoute["POST /v1/agents"]).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it("an agent of the same name and spec made moments ago is a conflict: the error says what to do, the agent is untouched", async () => {
    const p = session();
    await fx.client.createAgent({ serviceName: "taken-bot", image: IMAGE, nodeType: "arm", enableNoise: false });
    const summary = async () => (await fx.control.listAgents()).agents.find((a) => a.name === "taken-bot");
    const before = await summary();
    const error = await failureOf(p.create(await p.check({ serviceName: "taken-bot", image: IMAGE })));
    expect(error.message).toContain('agent "taken-bot": the name is taken at the service (by another stack, or outside Pulumi), and this stack never takes it over');
    expect(error.message).toContain('read the agent with Agent.get("bot", "taken-bot")');
    expect(isPartialFailure(error)).toBe(false);
    expect(p.messages().join("\n")).not.toContain("taking it over");
    expect(await summary()).toEqual(before);
    expect(before?.deployments).toHaveLength(1);
  });

  it("check fails on a missing set or a lacking field naming the set's fields, nothing sent; a satisfied set deploys", async () => {
    const p = session();
    const bot = { serviceName: "refs-bot", image: IMAGE };
    expect(await p.checkFailures({ ...bot, secretSet: "no-such-secrets" })).toEqual([
      expect.stringContaining('secret set "no-such-secrets" does not exist at the service (GET /secrets/no-such-secrets answered 404)'),
    ]);
    expect(await p.checkFailures({ ...bot, secretSet: "voice-secrets", requiredSecrets: ["TOKEN", "OPENAI_KEY"] })).toEqual([
      expect.stringContaining('secret set "voice-secrets" lacks the field OPENAI_KEY that requiredSecrets names; it has TOKEN'),
    ]);
    await expect(fx.client.getAgent("refs-bot")).rejects.toBeInstanceOf(NotFoundError);
    await p.create(await p.check({ ...bot, secretSet: "voice-secrets", requiredSecrets: ["TOKEN"] }));
    expect(specOf(await fx.client.getAgent("refs-bot"))["envFromSecretNames"]).toEqual(["voice-secrets"]);
  });

  it("a delete waits up to drainSeconds for live sessions to end; with 0 it warns how many it cut; a service that reports no count, neither", async () => {
    const p = session();
    const drained = await p.create(await p.check({ serviceName: "drain-bot", image: IMAGE, drainSeconds: 30 }));
    const cut = await p.create(await p.check({ serviceName: "cut-bot", image: IMAGE }));
    await fx.control.setSessions("drain-bot", 2, 2_500);
    await fx.control.setSessions("cut-bot", 2);
    await p.delete("drain-bot", drained.outs);
    await p.delete("cut-bot", cut.outs);
    const lines = p.messages();
    if (reportsSessions(cell)) {
      expect(lines).toContain('agent "drain-bot": 2 live sessions; waiting for them to end before the delete, 0 s of drainSeconds 30 s');
      expect(lines).toContain('agent-hosting: agent "cut-bot": 2 live sessions were cut by the delete (drainSeconds 0); set drainSeconds to let them end first');
      expect(lines.filter((l) => l.startsWith('agent-hosting: agent "drain-bot"'))).toEqual([]);
    } else {
      // The other reading leaves activeSessionCount out of its answers: the delete sees no sessions, waits for none and warns of none.
      expect(lines.join("\n")).not.toContain("live session");
    }
    const names = (await fx.control.listAgents()).agents.map((a) => a.name);
    expect(names).not.toContain("drain-bot");
    expect(names).not.toContain("cut-bot");
  });

  it("a wait past 5 s prints the agent, its deployment, the flags, the time waited and the newest log line, and each new log line", async () => {
    const slow = await startEmu({ ...cell, apiKey: API_KEY, readyAfterMs: 6_500 });
    try {
      const p = providerSession(slow.url, API_KEY);
      await p.create(await p.check({ serviceName: "slow-bot", image: IMAGE }));
      const waiting = p.messages().filter((l) => l.includes('agent "slow-bot": waiting for readiness'));
      expect(waiting[0]).toMatch(/deployment dep-[0-9a-f]+, ready=false, activeDeploymentReady=false, 5 s of 600 s; newest log: Starting container agent/);
      expect(p.messages()).toContain(`agent "slow-bot": Pulling image "${IMAGE}"`);
      expect(p.messages().join("\n")).not.toContain(API_KEY);
    } finally {
      await slow.close();
    }
  });
});
