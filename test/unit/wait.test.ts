/** The readiness wait stops polling when its signal aborts (a Cancel or an interruption ended the step). */
import { describe, expect, it } from "vitest";
import type { AgentHostingClient } from "../../src/client/client";
import { waitForAgentReady } from "../../src/provider/wait";
import type { ServiceAgent } from "../../src/model";

const notReady = { name: "slow-bot", ready: false, activeDeploymentReady: false, activeDeploymentId: "dep-1", autoScaling: { minReplicas: 1, maxReplicas: 1 }, deployment: null } as unknown as ServiceAgent;

/** A client whose agent never becomes ready, counting its polls. */
function pollCounter() {
  const counter = { polls: 0, client: undefined as unknown as AgentHostingClient };
  counter.client = { getAgent: async () => (counter.polls++, notReady) } as unknown as AgentHostingClient;
  return counter;
}

describe("the readiness wait and its signal", () => {
  it("rejects with the signal's reason and polls no more once aborted", async () => {
    const counter = pollCounter();
    const controller = new AbortController();
    const waiting = waitForAgentReady(counter.client, { name: "slow-bot", initial: notReady, timeoutSeconds: 60, firstDelayMs: 10, signal: controller.signal });
    while (counter.polls < 2) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    const after = counter.polls;
    await new Promise((r) => setTimeout(r, 300));
    expect(counter.polls).toBe(after);
  });

  it("an aborted signal ends the wait before its first poll", async () => {
    const counter = pollCounter();
    const waiting = waitForAgentReady(counter.client, { name: "slow-bot", initial: notReady, timeoutSeconds: 60, signal: AbortSignal.abort(new Error("stopped")) });
    await expect(waiting).rejects.toThrow("stopped");
    expect(counter.polls).toBe(0);
  });
});
