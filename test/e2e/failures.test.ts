/**
 * What a user sees when things go wrong, through the real engine: a
 * never-ready image fails `up` with a readable message and stays in state;
 * bad inputs fail `preview` naming every field, with nothing sent.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator-fixture";
import { useStacks } from "./support/e2e-fixture";
import type { StackHandle } from "./support/stack";
import { API_KEY } from "../support/fixtures";

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 300, secretSets: { "voice-secrets": ["TOKEN"] } });
const makeStack = useStacks();

const newStack = (name: string, apiKey = API_KEY): StackHandle => makeStack(name, { baseUrl: fx.emulator.url, apiKey });

describe("failures through the real pulumi CLI", () => {
  it("a never-ready image fails up with the agent, its state and its log lines, and keeps it in state", async () => {
    const stack = newStack("never-ready");
    const params = {
      agents: [{ resource: "broken", args: { serviceName: "broken-bot", image: "registry.example.com/bot:fail", readyTimeoutSeconds: 2 } }],
    };
    const postsBefore = (await fx.control.stats()).byRoute["POST /v1/agents"] ?? 0;
    const up = await stack.run("up", { params });
    expect(up.ok).toBe(false);
    const text = `${up.error}\n${up.engineOutput}`;
    expect(text).toMatch(/agent "broken-bot" did not become ready within 2 s after create/);
    expect(text).toMatch(/newest log lines:/);
    expect(text).toMatch(/bot:fail/);
    expect(text).not.toContain(API_KEY);
    const exported = await stack.run("export");
    const resources = (exported.deployment as { deployment: { resources: { type: string; id?: string }[] } }).deployment.resources;
    expect(resources.some((r) => r.type === "pulumi-nodejs:dynamic/agent-hosting:Agent" && r.id === "broken-bot")).toBe(true);
    // The next up waits for it again instead of creating it twice.
    const again = await stack.run("up", { params });
    expect(again.ok).toBe(false);
    expect(`${again.error}`).toMatch(/did not become ready/);
    const posts = ((await fx.control.stats()).byRoute["POST /v1/agents"] ?? 0) - postsBefore;
    expect(posts).toBe(1);
    const destroy = await stack.run("destroy");
    expect(destroy.ok).toBe(true);
    expect((await fx.control.listAgents()).agents.map((a) => a.name)).not.toContain("broken-bot");
  });

  it("bad inputs fail preview naming every field, with nothing sent to the service", async () => {
    const stack = newStack("bad-inputs");
    const requestsBefore = (await fx.control.stats()).requests;
    const preview = await stack.run("preview", {
      params: {
        agents: [
          {
            resource: "bad",
            args: {
              serviceName: "Bad_Name",
              image: "no-tag",
              nodeType: "x86",
              secretSet: "x",
              autoScaling: { minAgents: 4, maxAgents: 2 },
              readyTimeoutSeconds: 0,
            },
          },
        ],
      },
    });
    expect(preview.ok).toBe(false);
    const text = `${preview.error}\n${preview.engineOutput}`;
    for (const field of ["serviceName", "image", "nodeType", "secretSet", "autoScaling.minAgents", "readyTimeoutSeconds"]) {
      expect(text).toContain(field);
    }
    expect((await fx.control.stats()).requests).toBe(requestsBefore);
  });

  it("a wrong API key is refused with a clear error that does not echo it", async () => {
    const wrongKey = "wrong-key-SHOULD-NOT-LEAK-55";
    const stack = newStack("wrong-key", wrongKey);
    const up = await stack.run("up", { params: { agents: [{ resource: "a", args: { serviceName: "key-bot", image: "bot:1" } }] } });
    expect(up.ok).toBe(false);
    expect(`${up.error}\n${up.engineOutput}`).toMatch(/401/);
    expect(`${up.error}\n${up.engineOutput}`).not.toContain(wrongKey);
  });
});
