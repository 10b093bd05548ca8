/**
 * The real engine end to end, as in a provider acceptance test. Each test
 * brings its own emulator and stack, so none depends on another or on the
 * order they run in: create → no-op preview → update in place → scaling-only
 * update → replace; an outside delete and refresh; an outside change shown as
 * drift and restored by up; Agent.get adopting; the state and destroy; an
 * Agent whose state an earlier version wrote. The engine's output and the
 * state never hold the API key. Each runs once, on the emulator's own
 * reading (updates roll); test/integration/matrix-lifecycle.test.ts runs the
 * same steps through the provider core on every reading and rollout.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { specOf } from "../support/fixtures";
import { runReviewBin } from "../support/review-bin";
import { AgentHostingClient } from "../../src/client/client";
import { EmulatorControl } from "../../src/emulator";
import { startEmu } from "../support/emulator-fixture";
import { e2eStack, type OpResult, type RunOptions, type StackHandle, type StackHandleOp } from "./support/stack";

const API_KEY = "e2e-SECRET-key-7f3a9c";
const AGENT_TYPE = "pulumi-nodejs:dynamic/agent-hosting:Agent";

interface Fixture {
  control: EmulatorControl;
  client: AgentHostingClient;
  stack: StackHandle;
  run(op: StackHandleOp, params?: unknown, options?: RunOptions): Promise<OpResult>;
}

/** A fresh emulator and stack for one test; checks the engine's output for the key when the test is done. */
async function withFixture(name: string, body: (f: Fixture) => Promise<void>, readyAfterMs = 500): Promise<void> {
  const emulator = await startEmu({
    apiKey: API_KEY,
    readyAfterMs,
    secretSets: { "voice-secrets": ["TOKEN", "SIP_PASSWORD"] },
  });
  const client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: API_KEY });
  const stack = e2eStack(`lifecycle-${name}`, { baseUrl: emulator.url, apiKey: API_KEY });
  const outputs: string[] = [];
  const run = async (op: StackHandleOp, params?: unknown, options: RunOptions = {}) => {
    const result = await stack.run(op, params === undefined ? options : { ...options, params });
    outputs.push(result.engineOutput, result.error ?? "");
    return result;
  };
  try {
    await body({ control: new EmulatorControl(emulator.baseUrl), client, stack, run });
    expect(outputs.join("\n")).not.toContain(API_KEY);
  } finally {
    await client.close();
    await emulator.close();
    stack.remove();
  }
}

function agentArgs(serviceName: string, image: string, scaling = { minAgents: 1, maxAgents: 3 }) {
  return { serviceName, image, secretSet: "voice-secrets", autoScaling: scaling, enableNoise: true };
}

/**
 * The engine's line for a resource step of `up` with exactly the properties
 * `diff` lists, e.g. "bot-a updated (0.6s) [diff: ~image]", optionally
 * followed by the provider's last status ("; agent ...").
 */
function stepLine(resource: string, step: "updated" | "replaced", diff: string): RegExp {
  return new RegExp(`^ [~+-]+ +${AGENT_TYPE.replace(/\//g, "\\/")} ${resource} ${step} \\([\\d.]+s\\) \\[diff: ${diff}\\](;.*)?$`, "m");
}

/** The line of a preview's diff (`--diff`) for an input changing from `from` to `to`. */
function inputDiffLine(property: string, from: string, to: string): RegExp {
  const quote = (s: string) => JSON.stringify(s).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`^ +~ ${property} +: ${quote(from)} => ${quote(to)}$`, "m");
}

function serviceNames(control: EmulatorControl): Promise<string[]> {
  return control.listAgents().then(({ agents }) => agents.map((a) => a.name).sort());
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("an Agent through the real pulumi CLI", () => {
  it("up creates, a second preview is a no-op, an image change updates in place, a scaling change keeps the deployment, a rename replaces", () =>
    withFixture("steps", async ({ control, run }) => {
      const declare = (imageA: string, scalingA?: { minAgents: number; maxAgents: number }, nameB = "bot-b") => ({
        agents: [
          { resource: "bot-a", args: agentArgs("bot-a", imageA, scalingA) },
          { resource: "bot-b", args: agentArgs(nameB, "registry.example.com/bot:1") },
        ],
        secretSet: "voice-secrets",
      });
      const up = await run("up", declare("registry.example.com/bot:1"));
      expect(up.error).toBeUndefined();
      // A new stack, previewed first: the up's own preview.
      expect(up.previewChangeSummary).toEqual({ create: 3 });
      expect(up.changeSummary).toEqual({ create: 3 });
      const created = up.outputs["bot-a"] as { activeDeploymentId: string };
      expect(up.outputs["bot-a"]).toMatchObject({ name: "bot-a", ready: true, manifest: { spec: { image: "registry.example.com/bot:1" } } });
      expect(up.outputs["secretFields"]).toEqual(["TOKEN", "SIP_PASSWORD"]);
      expect(await serviceNames(control)).toEqual(["bot-a", "bot-b"]);

      const noop = await run("preview", declare("registry.example.com/bot:1"));
      expect(noop.error).toBeUndefined();
      expect(noop.changeSummary).toEqual({ same: 3 });

      // Each up's own preview shows what it does (the diff's view of an image change: the drift case's preview).
      const image = await run("up", declare("registry.example.com/bot:2"));
      expect(image.previewChangeSummary).toEqual({ update: 1, same: 2 });
      expect(image.changeSummary).toEqual({ update: 1, same: 2 });
      expect(image.engineOutput).toMatch(stepLine("bot-a", "updated", "~image"));
      const updated = image.outputs["bot-a"] as { name: string; activeDeploymentId: string };
      expect(updated.name).toBe("bot-a");
      expect(updated.activeDeploymentId).not.toBe(created.activeDeploymentId);
      // The outputs describe the deployment that serves: on a rolling service, the one the update rolled out.
      expect(updated).toMatchObject({ desiredDeploymentId: updated.activeDeploymentId, available: true, ready: true });
      expect(image.outputs["bot-a"]).toMatchObject({ manifest: { spec: { image: "registry.example.com/bot:2" } } });

      const scaling = await run("up", declare("registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }));
      expect(scaling.previewChangeSummary).toEqual({ update: 1, same: 2 });
      expect(scaling.changeSummary).toEqual({ update: 1, same: 2 });
      expect(scaling.engineOutput).toMatch(stepLine("bot-a", "updated", "~autoScaling"));
      const scaled = scaling.outputs["bot-a"] as { activeDeploymentId: string; autoScaling: unknown };
      expect(scaled.activeDeploymentId).toBe(updated.activeDeploymentId);
      expect(scaled.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 8 });

      const rename = await run("up", declare("registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }, "bot-b-renamed"));
      expect(rename.previewChangeSummary).toEqual({ replace: 1, same: 2 });
      expect(rename.changeSummary).toEqual({ replace: 1, same: 2 });
      // `name` follows serviceName among the checked inputs (it is what keeps agent.name known in previews).
      expect(rename.engineOutput).toMatch(stepLine("bot-b", "replaced", "~name,serviceName"));
      expect(await serviceNames(control)).toEqual(["bot-a", "bot-b-renamed"]);
      expect((await run("destroy")).error).toBeUndefined();
      expect(await serviceNames(control)).toEqual([]);
    }));

  it("an agent deleted behind Pulumi's back disappears on refresh, and the next preview would create it", () =>
    withFixture("deleted", async ({ control, client, run }) => {
      const declared = { agents: [{ resource: "bot-d", args: agentArgs("bot-d", "registry.example.com/bot:1") }] };
      const up = await run("up", declared);
      expect(up.error).toBeUndefined();
      expect(up.previewChangeSummary).toEqual({ create: 2 });
      await client.deleteAgent("bot-d");
      const refresh = await run("refresh");
      expect(refresh.error).toBeUndefined();
      expect(refresh.changeSummary).toEqual({ delete: 1, same: 1 });
      const preview = await run("preview", declared);
      expect(preview.changeSummary).toEqual({ create: 1, same: 1 });
      expect(await serviceNames(control)).toEqual([]);
    }));

  it("an agent changed behind its back shows the drift in the next preview, and up restores it", () =>
    withFixture("drift", async ({ client, run }) => {
      const declared = { agents: [{ resource: "bot-a", args: agentArgs("bot-a", "registry.example.com/bot:2", { minAgents: 2, maxAgents: 8 }) }] };
      const created = await run("up", declared);
      expect(created.error).toBeUndefined();
      expect(created.previewChangeSummary).toEqual({ create: 2 });
      await client.updateAgent("bot-a", {
        image: "registry.example.com/bot:tampered",
        secretSet: "voice-secrets",
        autoScaling: { minAgents: 2, maxAgents: 8 },
        enableNoise: true,
      });
      const preview = await run("preview", declared, { refresh: true });
      expect(preview.changeSummary).toMatchObject({ update: 1 });
      // The planned step, from the refreshed (tampered) image back to the declared one.
      expect(preview.engineOutput).toMatch(inputDiffLine("image", "registry.example.com/bot:tampered", "registry.example.com/bot:2"));
      const up = await run("up", declared, { refresh: true });
      expect(up.error).toBeUndefined();
      expect(up.previewChangeSummary).toMatchObject({ update: 1 });
      expect(up.engineOutput).toMatch(stepLine("bot-a", "updated", "~image"));
      expect(specOf(await client.getAgent("bot-a"))["image"]).toBe("registry.example.com/bot:2");
      const after = await run("preview", declared);
      expect(after.changeSummary).toEqual({ same: 2 });
    }));

  it("an update still rolling out: refresh and the drift review name what serves and what is pending; once it serves, nothing differs", () =>
    withFixture(
      "rollout",
      async ({ client, run }) => {
        // Deployments take 45 s to validate, so the second one is still pending while the CLI refreshes, however busy the machine.
        const declare = (image: string) => ({ agents: [{ resource: "bot-r", args: { ...agentArgs("bot-r", image), waitForReady: false } }] });
        const created = await run("up", declare("registry.example.com/bot:1"));
        expect(created.error).toBeUndefined();
        expect(created.previewChangeSummary).toEqual({ create: 2 });
        const up = await run("up", declare("registry.example.com/bot:2"));
        expect(up.error).toBeUndefined();
        expect(up.previewChangeSummary).toEqual({ update: 1, same: 1 });
        const refresh = await run("refresh");
        expect(refresh.error).toBeUndefined();
        const document = JSON.stringify((await run("refresh-json")).preview);
        const review = await runReviewBin(["drift"], document);
        const live = await client.getAgent("bot-r");
        const pending = live.desiredDeploymentId;
        expect(pending).not.toBe(live.activeDeploymentId);
        expect(refresh.engineOutput).toContain(`agent "bot-r" serves deployment ${live.activeDeploymentId} while deployment ${pending} is pending at the service`);
        expect(review.stdout).toContain(`the service serves deployment \`${live.activeDeploymentId}\` while deployment \`${String(pending)}\` is pending`);
        expect(review.stdout).not.toContain("no drift");
        while (!(await client.getAgent("bot-r")).ready) await new Promise((r) => setTimeout(r, 500));
        expect((await run("preview", declare("registry.example.com/bot:2"))).changeSummary).toEqual({ same: 2 });
        const settled = await run("refresh");
        expect(settled.engineOutput).not.toContain("is pending at the service");
        expect((await run("preview", declare("registry.example.com/bot:2"))).changeSummary).toEqual({ same: 2 });
      },
      45_000,
    ));

  it("Agent.get adopts an existing agent and only reads it; a missing one fails naming it", () =>
    withFixture("adopt", async ({ control, client, run }) => {
      await client.createAgent({ serviceName: "made-elsewhere", image: "registry.example.com/other:5" });
      const up = await run("up", { adopt: [{ resource: "adopted", serviceName: "made-elsewhere" }] });
      expect(up.error).toBeUndefined();
      expect(up.previewChangeSummary, "the up's own preview").toBeDefined();
      expect(up.outputs["adopted"]).toMatchObject({ name: "made-elsewhere", image: "registry.example.com/other:5" });
      const missing = await run("preview", { adopt: [{ resource: "ghost", serviceName: "no-such-agent" }] });
      expect(missing.ok).toBe(false);
      expect(missing.error).toMatch(/agent "no-such-agent" does not exist at the service \(GET \/v1\/agents\/no-such-agent answered 404\)/);
      expect((await run("destroy")).error).toBeUndefined();
      expect(await serviceNames(control)).toEqual(["made-elsewhere"]);
    }));

  it("the state holds no API key and a small serialized provider per agent", () =>
    withFixture("state", async ({ stack, run }) => {
      const declared = {
        agents: ["bot-s1", "bot-s2"].map((n) => ({ resource: n, args: agentArgs(n, "registry.example.com/bot:1") })),
      };
      const up = await run("up", declared);
      expect(up.error).toBeUndefined();
      expect(up.previewChangeSummary).toEqual({ create: 3 });
      const exported = await run("export");
      expect(JSON.stringify(exported.deployment)).not.toContain(API_KEY);
      const resources = (exported.deployment as { deployment: { resources: { type: string; inputs?: Record<string, unknown> }[] } })
        .deployment.resources;
      const agents = resources.filter((r) => r.type === AGENT_TYPE);
      expect(agents).toHaveLength(2);
      for (const agent of agents) {
        expect(Buffer.byteLength(String(agent.inputs?.["__provider"]))).toBeLessThan(512);
      }
      for (const file of filesUnder(join(stack.workDir, ".state"))) {
        expect(readFileSync(file, "utf8").includes(API_KEY), file).toBe(false);
      }
    }));
});

describe("an Agent whose state version 0.1.0 wrote", () => {
  // Its state holds the provider text 0.1.0 wrote (written out here, not
  // taken from the sources, so a change of this version's text cannot hide a
  // break); refresh and destroy run the text stored at the last `up`.
  const earlierText = 'exports.handler = () => require("pulumi-agent-hosting/provider-impl").provider;\n';

  it("previews as unchanged under this version, and its stored text still refreshes and destroys it", () =>
    withFixture("earlier", async ({ control, run }) => {
      const args = agentArgs("bot-e", "registry.example.com/bot:1");
      const up = await run("up", { earlier: [{ resource: "bot-e", args, providerText: earlierText }] });
      expect(up.error).toBeUndefined();
      expect(up.previewChangeSummary).toEqual({ create: 2 });
      expect(up.changeSummary).toEqual({ create: 2 });
      expect(await serviceNames(control)).toEqual(["bot-e"]);

      const preview = await run("preview", { agents: [{ resource: "bot-e", args }] });
      expect(preview.error).toBeUndefined();
      expect(preview.changeSummary).toEqual({ same: 2 });

      const state = await run("export");
      const stored = (state.deployment as { deployment: { resources: { type: string; outputs?: Record<string, unknown> }[] } }).deployment.resources.find(
        (r) => r.type === AGENT_TYPE,
      );
      expect(stored?.outputs?.["__provider"]).toBe(earlierText);
      const refresh = await run("refresh");
      expect(refresh.error).toBeUndefined();
      expect(refresh.changeSummary).toEqual({ same: 2 });
      expect((await run("destroy")).error).toBeUndefined();
      expect(await serviceNames(control)).toEqual([]);
    }));
});
