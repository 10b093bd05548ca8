/**
 * The cases the fault campaign's issue names, under the real CLI on the
 * dynamic path, each read from the emulator's request log (what the service
 * received, in order, with the time each request arrived): an outside update
 * superseding the deployment an `up` waits for; a destroy's drain whose
 * DELETE comes after the sessions ended and before `drainSeconds` ran out;
 * sessions that outlast `drainSeconds`.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RequestRecord } from "../../src/emulator/request-log";
import { useEmulator, waitFor } from "../support/emulator-fixture";
import { e2eStack, exportedState, type StackHandle } from "./support/stack";
import { succeeded } from "./support/succeeded";

const API_KEY = "campaign-cases-KEY-7d21";
const IMAGE = (tag: string) => `registry.example.com/bot:${tag}`;
const one = (serviceName: string, args: Record<string, unknown>) => ({ agents: [{ resource: "bot", args: { serviceName, ...args } }] });

describe("the cases the campaign's issue names", () => {
  // Deployments validate after 1.5 s, so an outside update lands while the up still waits.
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 1500 });
  const stacks: StackHandle[] = [];
  afterAll(() => {
    for (const stack of stacks) stack.remove();
  });
  const newStack = (name: string): StackHandle => {
    const stack = e2eStack(`campaign-cases-${name}`, { baseUrl: fx.url, apiKey: API_KEY });
    stacks.push(stack);
    return stack;
  };
  const log = async (): Promise<RequestRecord[]> => (await fx.control.requests()).requests;
  const ofAgent = (records: RequestRecord[], name: string) => records.filter((r) => r.path === `/v1/agents/${name}`);

  it("an outside update superseding the deployment an up waits for: the up fails naming both deployments and the fix, the state holds what serves or the pending mark, and refresh then up converge", async () => {
    const stack = newStack("supersede");
    succeeded(await stack.run("up", { params: one("sup-bot", { image: IMAGE("1") }) }));
    const before = (await log()).length;
    const up = stack.run("up", { params: one("sup-bot", { image: IMAGE("2") }) });
    await waitFor("the up's update POST", async () => ofAgent((await log()).slice(before), "sup-bot").some((r) => r.method === "POST"), 60_000, 20);
    const outside = await fx.raw("POST", "/v1/agents/sup-bot", { json: { image: IMAGE("outside") } });
    expect(outside.status).toBe(200);
    const result = await up;
    expect(result.ok).toBe(false);
    const deployments = (await fx.control.listAgents()).agents.find((a) => a.name === "sup-bot")?.deployments ?? [];
    const wanted = deployments.find((d) => d.image === IMAGE("2"))?.id;
    const superseding = deployments.find((d) => d.image === IMAGE("outside"))?.id;
    const text = `${result.error ?? ""}${result.engineOutput}`;
    expect(text).toContain(`agent "sup-bot": deployment ${wanted}, which this operation waits for, was superseded at the service by deployment ${superseding}`);
    expect(text).toContain("Run `pulumi refresh` to record what the service runs, then `pulumi up` to apply the program again.");
    const state = (await exportedState(stack)).deployment?.resources?.find((r) => String(r["type"]).endsWith(":Agent"));
    const outputs = (state?.["outputs"] ?? {}) as Record<string, unknown>;
    const live = await fx.client.getAgent("sup-bot");
    expect(outputs["__pending"] !== undefined || outputs["activeDeploymentId"] === live.activeDeploymentId).toBe(true);
    expect(text).not.toContain(API_KEY);
    await waitFor("the superseding deployment to serve", async () => (await fx.client.getAgent("sup-bot")).activeDeploymentId === superseding, 10_000, 50);
    succeeded(await stack.run("refresh", { params: one("sup-bot", { image: IMAGE("2") }) }));
    succeeded(await stack.run("up", { params: one("sup-bot", { image: IMAGE("2") }) }));
    const served = (await fx.control.listAgents()).agents.find((a) => a.name === "sup-bot");
    expect(served?.deployments.find((d) => d.id === served.activeDeploymentId)?.image).toBe(IMAGE("2"));
    const preview = await stack.run("preview", { params: one("sup-bot", { image: IMAGE("2") }) });
    expect(preview.changeSummary).toEqual({ same: 2 });
    succeeded(await stack.run("destroy", { params: one("sup-bot", { image: IMAGE("2") }) }));
  });

  it("the drain, from the request log: the DELETE comes after the sessions ended, after a read that found none, and before drainSeconds ran out", async () => {
    const stack = newStack("drain");
    const params = one("drain-bot", { image: IMAGE("1"), drainSeconds: 120 });
    succeeded(await stack.run("up", { params }));
    await fx.control.setSessions("drain-bot", 2);
    const start = (await log()).length;
    const destroy = stack.run("destroy", { params });
    // The drain reads the agent's sessions again and again while they stay live, and deletes nothing.
    await waitFor("two reads of the live sessions", async () => ofAgent((await log()).slice(start), "drain-bot").filter((r) => r.method === "GET").length >= 2, 60_000, 20);
    const whileLive = ofAgent((await log()).slice(start), "drain-bot");
    expect(whileLive.some((r) => r.method === "DELETE")).toBe(false);
    const ended = (await log()).length;
    // The sessions end now, on the emulator's clock: endsAt is when.
    const { endsAt } = await fx.control.setSessions("drain-bot", 2, 0);
    const result = await destroy;
    succeeded(result);
    const afterEnd = ofAgent((await log()).slice(ended), "drain-bot");
    const deleteAt = afterEnd.findIndex((r) => r.method === "DELETE");
    // The DELETE came after the sessions ended, after a GET that found none, and was the last request of the agent.
    expect(deleteAt).toBeGreaterThan(0);
    expect(afterEnd.slice(0, deleteAt).some((r) => r.method === "GET" && r.status === 200)).toBe(true);
    expect(afterEnd.slice(deleteAt + 1)).toEqual([]);
    expect(ofAgent((await log()).slice(start), "drain-bot").filter((r) => r.method === "DELETE")).toHaveLength(1);
    // From the receipt times: the DELETE arrived once the sessions had ended, and before drainSeconds (120 s)
    // had run since the drain's first read of them.
    const drainStart = ofAgent((await log()).slice(start), "drain-bot")[0] as RequestRecord;
    const deleted = afterEnd[deleteAt] as RequestRecord;
    expect(endsAt).not.toBeNull();
    expect(deleted.receivedAtMs).toBeGreaterThanOrEqual(endsAt as number);
    expect(deleted.receivedAtMs - drainStart.receivedAtMs).toBeLessThan(120_000);
    // Before drainSeconds ran out: no session was cut, which a drain that ran out reports.
    expect(result.engineOutput).toContain('agent "drain-bot": 2 live sessions; waiting for them to end before the delete');
    expect(result.engineOutput).not.toMatch(/drain-bot.*were cut/);
    expect((await fx.control.listAgents()).agents.map((a) => a.name)).not.toContain("drain-bot");
  });

  it("sessions outlasting drainSeconds: the drain reads them until drainSeconds ran out, then one DELETE cuts them with a warning naming the count", async () => {
    const stack = newStack("outlast");
    const params = one("outlast-bot", { image: IMAGE("1"), drainSeconds: 2 });
    succeeded(await stack.run("up", { params }));
    await fx.control.setSessions("outlast-bot", 3);
    const start = (await log()).length;
    const result = await stack.run("destroy", { params });
    succeeded(result);
    const requests = ofAgent((await log()).slice(start), "outlast-bot");
    const deleteAt = requests.findIndex((r) => r.method === "DELETE");
    expect(deleteAt).toBeGreaterThan(0);
    // Every read before the DELETE found the sessions still live (they never end), and nothing follows it.
    expect(requests.slice(0, deleteAt).every((r) => r.method === "GET")).toBe(true);
    expect(requests.slice(0, deleteAt).length).toBeGreaterThanOrEqual(2);
    expect(requests.slice(deleteAt + 1)).toEqual([]);
    // From the receipt times: the DELETE arrived no sooner than drainSeconds (2 s) after the first read, whose
    // answer starts the drain's clock (src/resources/agent/read.ts).
    expect((requests[deleteAt] as RequestRecord).receivedAtMs - (requests[0] as RequestRecord).receivedAtMs).toBeGreaterThanOrEqual(2000);
    expect(result.engineOutput).toMatch(/agent "outlast-bot": 3 live sessions were cut by the delete \(they outlasted drainSeconds 2 s\)/);
    expect((await fx.control.listAgents()).agents.map((a) => a.name)).not.toContain("outlast-bot");
  });
});
