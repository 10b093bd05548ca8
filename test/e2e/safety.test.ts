/**
 * Safety under the real CLI: nothing silently reset (undeclared scaling kept,
 * removed secret sets cleared and shown), the preview is what `up` does
 * (settings-only changes send nothing; names stay known downstream), secrets
 * stay secret in every derived output, nothing orphaned by a failure after
 * the create was sent, a 409 is taken over only when plausibly ours, signs of
 * life while waiting, and redeployTrigger. Each runs once, on the emulator's
 * own reading (updates roll); test/integration/matrix-safety.test.ts runs
 * those that talk to the service through the provider core on every reading
 * and rollout.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../src/emulator";
import { startEmu } from "../support/emulator-fixture";
import { specOf } from "../support/fixtures";
import { useEmulator } from "../support/emulator-fixture";
import { useStacks } from "./support/e2e-fixture";
import { repoRoot, type OpResult, type StackHandle } from "./support/stack";
import { providerProcessesIn } from "./support/provider-processes";
import { succeeded } from "./support/succeeded";

const API_KEY = "e2e-SAFETY-key-41c9";
const IMAGE = "registry.example.com/bot:1";
const PROGRAM = join(repoRoot, "test/e2e/programs/safety.cjs");
const one = (resource: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ agents: [{ resource, args, ...extra }] });

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 300, secretSets: { "voice-secrets": ["TOKEN"] } });
const makeStack = useStacks();

/** A stack named for `name` and the port of the emulator at `url` (this block's unless given). */
const newStack = (name: string, url = fx.emulator.url): StackHandle =>
  makeStack(`${name}-${url.split(":").pop()?.replace(/\D/g, "")}`, { baseUrl: url, apiKey: API_KEY, program: PROGRAM });
const posts = async (path: string) => (await fx.control.requests()).requests.filter((r) => r.method === "POST" && r.path === path).length;

/**
 * The cases below that change a ready agent, or only create one, each have an agent of their own on
 * one stack: one up creates them all (the outage's GETs failing), one preview with the diff's view
 * and one up make every case's change, and one preview after it must show nothing left to do.
 */
describe("one stack, an agent a case: one create, one change of each kind", () => {
  const STACK = "safety-changes";
  const urn = (resource: string) => `urn:pulumi:dev::agent-hosting-e2e::pulumi-nodejs:dynamic/agent-hosting:Agent::${resource}`;
  const created = {
    "keep-scaling": { serviceName: "keep-scaling", image: IMAGE, autoScaling: { minAgents: 2, maxAgents: 5 } },
    "clear-set": { serviceName: "clear-set", image: IMAGE, secretSet: "voice-secrets" },
    "settings-only": { serviceName: "settings-only", image: IMAGE },
    leader: { serviceName: "leader", image: IMAGE },
    redeploy: { serviceName: "redeploy-bot", image: "registry.example.com/bot:latest", redeployTrigger: "push-1" },
  };
  const { autoScaling: _dropped, ...keepScalingWithout } = created["keep-scaling"];
  const { secretSet: _removed, ...clearSetWithout } = created["clear-set"];
  const changed: Record<keyof typeof created, Record<string, unknown>> = {
    // The program drops autoScaling and bumps the image.
    "keep-scaling": { ...keepScalingWithout, image: "registry.example.com/bot:2" },
    "clear-set": clearSetWithout,
    "settings-only": { ...created["settings-only"], readyTimeoutSeconds: 120 },
    leader: { ...created.leader, image: "registry.example.com/bot:2" },
    redeploy: { ...created.redeploy, redeployTrigger: "push-2" },
  };
  const program = (args: Record<string, Record<string, unknown>>) => ({
    agents: [
      ...Object.entries(args).map(([resource, a]) => ({ resource, args: a, ...(resource === "leader" ? { downstream: true } : {}) })),
      { resource: "secret-image", args: { serviceName: "secret-image", image: "registry.example.com/very-private-bot:7" }, secret: ["image"] },
      { resource: "outage", args: { serviceName: "outage-bot", image: IMAGE } },
    ],
  });
  // The agents above, the leader's follower and the stack.
  const RESOURCES = 9;
  let stack: StackHandle;
  let create: OpResult;
  let preview: OpResult;
  let change: OpResult;
  let after: OpResult;
  let postsBeforeCreate = 0;
  /** The requests the emulator received during the change's up. */
  let sentByChange: { method: string; path: string }[] = [];

  beforeAll(async () => {
    stack = newStack(STACK);
    postsBeforeCreate = await posts("/v1/agents");
    await fx.control.injectFault({ method: "GET", path: "/v1/agents/outage-bot", kind: "status", status: 503, count: 10 });
    create = await stack.run("up", { params: program(created) });
    succeeded(create);
    preview = await stack.run("preview", { params: program(changed) });
    const before = (await fx.control.requests()).requests.length;
    change = await stack.run("up", { params: program(changed) });
    sentByChange = (await fx.control.requests()).requests.slice(before);
    after = await stack.run("preview", { params: program(changed) });
  });

  it("a new stack is previewed first: the up's preview creates every agent", () => {
    expect(create.previewChangeSummary).toEqual({ create: RESOURCES });
    expect(create.changeSummary).toEqual({ create: RESOURCES });
  });

  it("the up of every change previews it first, and afterwards nothing differs", () => {
    succeeded(change);
    expect(preview.changeSummary).toEqual({ update: 5, same: 4 });
    expect(change.previewChangeSummary).toEqual({ update: 5, same: 4 });
    expect(after.changeSummary).toEqual({ same: RESOURCES });
  });

  it("a program that drops autoScaling and bumps the image keeps the agent's scaling", async () => {
    expect(change.agentOperations?.preview?.[urn("keep-scaling")]).toEqual(["update"]);
    const live = await fx.client.getAgent("keep-scaling");
    expect(live.autoScaling).toMatchObject({ minReplicas: 2, maxReplicas: 5 });
    expect(specOf(live)["image"]).toBe("registry.example.com/bot:2");
  });

  it("a secret set removed from the program is cleared at the service, and the preview shows the removal", async () => {
    expect(change.agentOperations?.preview?.[urn("clear-set")]).toEqual(["update"]);
    expect(preview.engineOutput).toMatch(/- secretSet\s*: "voice-secrets"/);
    expect(specOf(await fx.client.getAgent("clear-set"))["envFromSecretNames"] ?? []).toEqual([]);
  });

  it("a change of readyTimeoutSeconds only sends nothing to the service, and the preview says so", () => {
    // The up's own preview, in the CLI's default display: the row names the change and says nothing is sent.
    expect(change.engineOutput).toContain(
      'settings-only update [diff: ~readyTimeoutSeconds]; agent "settings-only": only readyTimeoutSeconds changed, which the provider keeps in the state; nothing is sent to the service',
    );
    expect(preview.engineOutput).toMatch(/~ readyTimeoutSeconds\s*: 600 => 120/);
    expect(sentByChange.filter((r) => r.path.startsWith("/v1/agents/settings-only"))).toEqual([]);
  });

  it("an image change keeps bot.name known, so a follower built on it stays unchanged in the preview", () => {
    expect(change.agentOperations?.preview?.[urn("leader")]).toEqual(["update"]);
    expect(change.agentOperations?.preview?.[urn("leader-follower")]).toEqual(["same"]);
  });

  it("redeployTrigger makes a new deployment of the same spec; the agent stays", async () => {
    const firstDeployment = (create.outputs["redeploy"] as { activeDeploymentId: string }).activeDeploymentId;
    expect(preview.engineOutput).toMatch(/~ redeployTrigger\s*: "push-1" => "push-2"/);
    expect((change.outputs["redeploy"] as { activeDeploymentId: string }).activeDeploymentId).not.toBe(firstDeployment);
    const live = (await fx.control.listAgents()).agents.find((a) => a.name === "redeploy-bot");
    expect(live?.deployments.map((d) => d.id)).toEqual([firstDeployment, live?.activeDeploymentId]);
  });

  it("a secret image is secret in manifest and deployment, in the state and in the stack outputs", async () => {
    const exported = JSON.stringify((await stack.run("export")).deployment);
    expect(exported).toContain("secret-image");
    expect(exported).not.toContain("very-private-bot");
    const outputJson = JSON.stringify((await stack.run("output-json")).deployment);
    expect(outputJson).toContain("[secret]");
    expect(outputJson).not.toContain("very-private-bot");
  });

  it("a GET outage right after the create is ridden out", async () => {
    expect(await posts("/v1/agents")).toBeGreaterThan(postsBeforeCreate);
    expect((await fx.control.requests()).requests.some((r) => r.method === "GET" && r.path === "/v1/agents/outage-bot" && r.status === 503)).toBe(true);
    expect((await fx.client.getAgent("outage-bot")).ready).toBe(true);
  });
});

describe("nothing orphaned", () => {
  it("a 401 after the create was sent keeps the agent in state; the next up waits for it without posting again", async () => {
    const stack = newStack("rotated-key");
    const params = one("bot", { serviceName: "rotated-bot", image: IMAGE });
    await fx.control.injectFault({ method: "GET", path: "/v1/agents/rotated-bot", kind: "status", status: 401, count: 1000 });
    const failed = await stack.run("up", { params });
    await fx.control.clearFaults();
    expect(failed.previewChangeSummary).toEqual({ create: 2 });
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(/agent "rotated-bot": the create was sent, but then failed: GET \/v1\/agents\/rotated-bot failed with 401/);
    expect(failed.error).not.toContain(API_KEY);
    const exported = JSON.stringify((await stack.run("export")).deployment);
    expect(exported).toContain('"id":"rotated-bot"');
    const postsBefore = (await fx.control.requests()).requests.filter((r) => r.method === "POST").length;
    const again = await stack.run("up", { params });
    expect(again.error).toBeUndefined();
    expect(again.previewChangeSummary, "the up's own preview").toBeDefined();
    expect((await fx.control.requests()).requests.filter((r) => r.method === "POST").length).toBe(postsBefore);
    expect((await stack.run("preview", { params })).changeSummary).toEqual({ same: 2 });
  });
});

describe("nothing orphaned when the provider process is interrupted", () => {
  it("SIGINT during the readiness wait answers with the agent kept in state; the next up finishes it without posting again", async () => {
    const slow = await startEmu({ apiKey: API_KEY, readyAfterMs: 6_000 });
    const slowControl = new EmulatorControl(slow.baseUrl);
    try {
      const stack = newStack("interrupted", slow.url);
      const params = one("bot", { serviceName: "interrupted-bot", image: IMAGE });
      const running = stack.run("up", { params });
      while ((await slowControl.listAgents()).agents.length === 0) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 500));
      const pids = providerProcessesIn(stack.workDir);
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) process.kill(pid, "SIGINT");
      const interrupted = await running;
      expect(interrupted.previewChangeSummary).toEqual({ create: 2 });
      expect(interrupted.ok).toBe(false);
      expect(interrupted.error).toContain('agent "interrupted-bot": the create was sent, but then failed: the provider process received SIGINT');
      expect(JSON.stringify((await stack.run("export")).deployment)).toContain('"id":"interrupted-bot"');
      const again = await stack.run("up", { params });
      expect(again.error).toBeUndefined();
      expect(again.previewChangeSummary, "the up's own preview").toBeDefined();
      expect((await slowControl.stats()).byRoute["POST /v1/agents"]).toBe(1);
    } finally {
      await slow.close();
    }
  });
});

describe("a name taken at the service is never taken over", () => {
  it("an agent of the same name and spec made moments ago is a conflict: the error says what to do, the state holds nothing, the agent is untouched", async () => {
    await fx.client.createAgent({ serviceName: "taken-bot", image: IMAGE, nodeType: "arm", enableNoise: false });
    const summary = async () => (await fx.control.listAgents()).agents.find((a) => a.name === "taken-bot");
    const before = await summary();
    const stack = newStack("taken");
    const up = await stack.run("up", { params: one("bot", { serviceName: "taken-bot", image: IMAGE }) });
    expect(up.previewChangeSummary).toEqual({ create: 2 });
    expect(up.ok).toBe(false);
    expect(up.error).toContain('agent "taken-bot": the name is taken at the service (by another stack, or outside Pulumi), and this stack never takes it over');
    expect(up.error).toContain('read the agent with Agent.get("bot", "taken-bot")');
    expect(up.engineOutput).not.toContain("taking it over");
    expect(JSON.stringify((await stack.run("export")).deployment)).not.toContain('"id":"taken-bot"');
    // Still the one deployment it was made with: nothing was posted to it.
    expect(await summary()).toEqual(before);
    expect(before?.deployments).toHaveLength(1);
  });
});

describe("secret sets checked at preview, live sessions at delete", () => {
  it("a missing set or required field fails the preview naming the set's fields, nothing sent; a satisfied set deploys", async () => {
    const stack = newStack("refs");
    const postsBefore = await posts("/v1/agents");
    const bot = { serviceName: "refs-bot", image: IMAGE };
    const missing = await stack.run("preview", { params: one("bot", { ...bot, secretSet: "no-such-secrets" }) });
    expect(missing.ok).toBe(false);
    expect(`${missing.error}`).toContain('secret set "no-such-secrets" does not exist at the service (GET /secrets/no-such-secrets answered 404)');
    const lacking = await stack.run("preview", { params: one("bot", { ...bot, secretSet: "voice-secrets", requiredSecrets: ["TOKEN", "OPENAI_KEY"] }) });
    expect(lacking.ok).toBe(false);
    expect(`${lacking.error}`).toContain('secret set "voice-secrets" lacks the field OPENAI_KEY that requiredSecrets names; it has TOKEN');
    expect(await posts("/v1/agents")).toBe(postsBefore);
    const up = await stack.run("up", { params: one("bot", { ...bot, secretSet: "voice-secrets", requiredSecrets: ["TOKEN"] }) });
    expect(up.error).toBeUndefined();
    expect(up.previewChangeSummary).toEqual({ create: 2 });
    expect(specOf(await fx.client.getAgent("refs-bot"))["envFromSecretNames"]).toEqual(["voice-secrets"]);
  });

  it("destroy waits up to drainSeconds for live sessions to end; with 0 it warns how many it cut", async () => {
    const stack = newStack("drain");
    const params = {
      agents: [
        { resource: "drained", args: { serviceName: "drain-bot", image: IMAGE, drainSeconds: 30 } },
        { resource: "cut", args: { serviceName: "cut-bot", image: IMAGE } },
      ],
    };
    const up = await stack.run("up", { params });
    succeeded(up);
    expect(up.previewChangeSummary).toEqual({ create: 3 });
    // drain-bot's sessions stay live until its delete has read them (its first GET), then end.
    await fx.control.setSessions("drain-bot", 2);
    await fx.control.setSessions("cut-bot", 2);
    const reads = async () => (await fx.control.requests()).requests.filter((r) => r.method === "GET" && r.path === "/v1/agents/drain-bot").length;
    const readsBefore = await reads();
    const destroying = stack.run("destroy", { params });
    while ((await reads()) === readsBefore) await new Promise((r) => setTimeout(r, 100));
    await fx.control.setSessions("drain-bot", 0);
    const destroy = await destroying;
    expect(destroy.error).toBeUndefined();
    expect(destroy.engineOutput).toContain('agent "drain-bot": 2 live sessions; waiting for them to end before the delete, 0 s of drainSeconds 30 s');
    expect(destroy.engineOutput).toContain('agent-hosting: agent "cut-bot": 2 live sessions were cut by the delete (drainSeconds 0); set drainSeconds to let them end first');
    expect(destroy.engineOutput).not.toContain('agent-hosting: agent "drain-bot"');
    const names = (await fx.control.listAgents()).agents.map((a) => a.name);
    expect(names).not.toContain("drain-bot");
    expect(names).not.toContain("cut-bot");
  });
});

describe("signs of life while waiting", () => {
  it("prints the agent, its deployment, the flags, the time waited and the newest log line after 5 s, then at least every 10 s, and each new log line", async () => {
    const slow = await startEmu({ apiKey: API_KEY, readyAfterMs: 16_000 });
    try {
      const stack = newStack("progress", slow.url);
      const up = await stack.run("up", { params: one("bot", { serviceName: "slow-bot", image: IMAGE }) });
      expect(up.error).toBeUndefined();
      expect(up.previewChangeSummary).toEqual({ create: 2 });
      const lines = up.engineOutput.split("\n").filter((l) => l.includes('agent "slow-bot": waiting for readiness'));
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines[0]).toMatch(/deployment dep-[0-9a-f]+, ready=false, activeDeploymentReady=false, 5 s of 600 s; newest log: Starting container agent/);
      expect(lines[1]).toMatch(/, 1[5-6] s of 600 s; newest log: /);
      // Each new log line of the deployment shows as it arrives, from 5 s on.
      expect(up.engineOutput).toContain(`agent "slow-bot": Pulling image "${IMAGE}"`);
      expect(up.engineOutput).not.toContain(API_KEY);
    } finally {
      await slow.close();
    }
  });
});
