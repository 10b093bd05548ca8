/**
 * Several pipelines on one service, through the real CLI (each up previewed
 * first): two stacks in two backends that declare the same serviceName (a
 * staging and a pull-request pipeline), and one stack whose backend gets two
 * ups at once (two runners of one pipeline).
 */
import { describe, expect, it } from "vitest";
import { agentsInState, expectNoKeyInStack } from "./support/secrets";
import { useEmulator } from "../support/emulator-fixture";
import { useStacks } from "./support/e2e-fixture";
import type { OpResult, StackHandle } from "./support/stack";
import { succeeded } from "./support/succeeded";

const API_KEY = "e2e-several-SECRET-8d2e";
const makeStack = useStacks();
const newStack = (name: string, url: string): StackHandle => makeStack(name, { baseUrl: url, apiKey: API_KEY });

const declare = (serviceName: string) => ({
  agents: [{ resource: "bot", args: { serviceName, image: "registry.example.com/bot:1", autoScaling: { minAgents: 1, maxAgents: 2 } } }],
});

describe("two stacks in two backends declare the same serviceName", () => {
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 500 });

  it("the second fails with a conflict and holds nothing; destroying it leaves the first stack's agent running", async () => {
    const texts: string[] = [];
    const staging = newStack("staging", fx.emulator.url);
    const pullRequest = newStack("pull-request", fx.emulator.url);
    const params = declare("shared-bot");

    const first = await staging.run("up", { params });
    texts.push(first.engineOutput, first.error ?? "");
    expect(first.error).toBeUndefined();
    const made = (await fx.control.listAgents()).agents.find((a) => a.name === "shared-bot");
    expect(made?.deployments).toHaveLength(1);

    const second = await pullRequest.run("up", { params });
    texts.push(second.engineOutput, second.error ?? "");
    expect(second.ok).toBe(false);
    expect(second.error).toContain('agent "shared-bot": the name is taken at the service (by another stack, or outside Pulumi), and this stack never takes it over');
    expect(second.error).toContain("choose another serviceName");
    expect(await agentsInState(pullRequest)).toEqual([]);

    const destroyed = await pullRequest.run("destroy");
    texts.push(destroyed.engineOutput, destroyed.error ?? "");
    succeeded(destroyed);
    // The first stack's agent is untouched: the same single deployment, nothing deleted.
    expect((await fx.control.listAgents()).agents.find((a) => a.name === "shared-bot")).toEqual(made);
    expect((await fx.control.requests()).requests.filter((r) => r.method === "DELETE")).toEqual([]);

    const again = await staging.run("preview", { params });
    expect(again.changeSummary).toEqual({ same: 2 });
    await expectNoKeyInStack(staging, API_KEY, texts);
    await expectNoKeyInStack(pullRequest, API_KEY, texts);
  });
});

describe("one stack in a shared backend gets two ups at once", () => {
  // Readiness after 8 s keeps the first up, and its lock, going while the second arrives.
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 8_000 });

  it("the backend's lock refuses one; the service holds one agent, posted once, and the state holds it once", async () => {
    const stack = newStack("two-runners", fx.emulator.url);
    const params = declare("runner-bot");
    // Open the stack once first, so the two runners only race for the update, as two CI jobs of one stack do.
    expect((await stack.run("preview", { params })).error).toBeUndefined();

    const results: OpResult[] = await Promise.all([stack.run("up", { params }), stack.run("up", { params })]);
    const refused = results.filter((r) => !r.ok);
    const applied = results.filter((r) => r.ok);
    expect(refused).toHaveLength(1);
    expect(applied).toHaveLength(1);
    expect(refused[0]?.error).toMatch(/the stack is currently locked by 1 lock\(s\)/);
    expect(applied[0]?.changeSummary).toEqual({ create: 2 }); // the stack and the agent

    expect((await fx.control.listAgents()).agents.map((a) => a.name)).toEqual(["runner-bot"]);
    expect((await fx.control.stats()).byRoute["POST /v1/agents"]).toBe(1);
    expect(await agentsInState(stack)).toEqual(["runner-bot"]);
    expect((await stack.run("preview", { params })).changeSummary).toEqual({ same: 2 });
    await expectNoKeyInStack(stack, API_KEY, results.flatMap((r) => [r.engineOutput, r.error ?? ""]));
  });
});
