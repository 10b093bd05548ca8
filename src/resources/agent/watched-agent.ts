/**
 * The agent as the readiness wait watches it: one GET per poll, ready when
 * the service serves the wanted deployment and both flags are true
 * (design.md section 4). Progress lines and failures read the wanted
 * deployment's logs, never the serving one's: on a service that rolls
 * updates, the old deployment serves until the new one validates.
 */
import type { AgentHostingClient } from "../../client/client";
import { retryReason } from "../../client/retry";
import type { Watched } from "../../core/readiness";
import type { Call } from "../../core/resource-entry";
import { isAgentReady, wantedDeploymentOf } from "./service-agent";
import type { ServiceAgent } from "./service-agent";

/** The wanted deployment was replaced at the service by another (an update from outside this stack): waiting for it cannot end. */
export class DeploymentSupersededError extends Error {
  constructor(name: string, wanted: string, agent: ServiceAgent) {
    super(
      `agent "${name}": deployment ${wanted}, which this operation waits for, was superseded at the service by deployment ${wantedDeploymentOf(agent)} ` +
        `(an update from outside this stack?); the service serves deployment ${agent.activeDeploymentId} (ready=${agent.ready}, activeDeploymentReady=${agent.activeDeploymentReady}). ` +
        "Run `pulumi refresh` to record what the service runs, then `pulumi up` to apply the program again.",
    );
    this.name = "DeploymentSupersededError";
  }
}

/** Whether the agent has moved on from `wanted`: it neither serves it nor still wants it. */
function superseded(agent: ServiceAgent, wanted: string): boolean {
  return agent.activeDeploymentId !== wanted && wantedDeploymentOf(agent) !== wanted;
}

/** The state of the agent in a progress line or a failure: what serves and, while it differs, what is wanted. */
export function describeAgent(agent: ServiceAgent | undefined, wanted?: string): string {
  if (agent === undefined) return "no answer yet";
  const target = wanted ?? wantedDeploymentOf(agent);
  const flags = `ready=${agent.ready}, activeDeploymentReady=${agent.activeDeploymentReady}`;
  const nulled = agent.deployment === null ? ", deployment not reported yet" : "";
  if (target === agent.activeDeploymentId) return `deployment ${target}, ${flags}${nulled}`;
  const available = agent.available === undefined ? "" : `, available=${agent.available}`;
  return `deployment ${target} not serving yet (deployment ${agent.activeDeploymentId} serves${available}), ${flags}${nulled}`;
}

/**
 * `wanted`: the deployment to wait for, as the create or update answer named
 * it (wantedDeploymentOf); without it, the one each answer names.
 */
export function watchedAgent(client: AgentHostingClient, name: string, wanted?: string): Watched<ServiceAgent> {
  return {
    label: `agent "${name}"`,
    poll: async (signal) => {
      const agent = await client.getAgent(name, { signal, maxRetries: 0 });
      if (wanted !== undefined && superseded(agent, wanted)) throw new DeploymentSupersededError(name, wanted, agent);
      return agent;
    },
    isReady: (agent) => isAgentReady(agent, wanted),
    describe: (agent) => describeAgent(agent, wanted),
    newestLogs: async (agent, count, startTime) => {
      const deploymentId = wanted ?? wantedDeploymentOf(agent);
      const since = startTime === undefined ? {} : { startTime };
      const page = await client.getAgentLogs({ agentName: agent.name, deploymentId, limit: count, order: "desc", ...since });
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
