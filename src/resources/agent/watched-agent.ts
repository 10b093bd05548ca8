/** The agent as the readiness wait watches it: one GET per poll, ready when both flags are and the deployment is the expected one. */
import type { AgentHostingClient } from "../../client/client";
import type { Watched } from "../../core/readiness";
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
