/**
 * The service's Agent as the package reads it: the members the package relies
 * on are required and every listed member is checked (src/client/schemas.ts);
 * everything else the service sends is kept as it came. The types are
 * generated from the answer models (src/client/answer-types.ts).
 */
import type { ServiceAgent } from "../../client/answer-types";

export type {
  AgentAutoScalingStatus as Replicas,
  Deployment,
  Manifest,
  ManifestSpec,
  ServiceAgent,
} from "../../client/answer-types";

/** Whether the agent and its active deployment are ready (and, after an update, the expected deployment is active). */
export function isAgentReady(agent: ServiceAgent, deploymentId?: string): boolean {
  return (
    agent.ready &&
    agent.activeDeploymentReady &&
    agent.deployment !== null &&
    (deploymentId === undefined || agent.activeDeploymentId === deploymentId)
  );
}
