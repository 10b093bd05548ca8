/** The agent as the readiness wait watches it: one GET per poll, ready when both flags are and the deployment is the expected one. */
import type { AgentHostingClient } from "../../client/client";
import { retryReason } from "../../client/retry";
import type { Watched } from "../../core/readiness";
import type { Call } from "../../core/resource-entry";
import { isAgentReady, type ServiceAgent } from "./service-agent";

export function watchedAgent(client: AgentHostingClient, name: string, deploymentId?: string): Watched<ServiceAgent> {
  return {
    label: `agent "${name}"`,
    poll: (signal) => client.getAgent(name, { signal, maxRetries: 0 }),
    isReady: (agent) => isAgentReady(agent, deploymentId),
    describe: (agent) =>
      agent === undefined
        ? "no answer yet"
        : `deployment ${agent.activeDeploymentId}, ready=${agent.ready}, activeDeploymentReady=${agent.activeDeploymentReady}` +
          (agent.deployment === null ? ", deployment not reported yet" : ""),
    newestLogs: async (agent, count) => {
      const page = await client.getAgentLogs({ agentName: agent.name, deploymentId: agent.activeDeploymentId, limit: count, order: "desc" });
      return [...page.logs].reverse();
    },
  };
}

/** Tells each failed poll of the agent that the wait polls again, as a retry note on the resource's row. */
export function failedPollNotes(call: Call, name: string): (error: unknown, attempt: number, delayMs: number) => void {
  return (error, attempt, delayMs) => {
    const path = error instanceof Error && "path" in error && typeof error.path === "string" ? error.path : `/agents/${name}`;
    call.log.retry({ method: "GET", path, attempt, delayMs, reason: retryReason(error) });
  };
}
