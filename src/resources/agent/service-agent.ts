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

/**
 * The deployment a create or update answer names as new (design.md section
 * 4): `desiredDeploymentId` on a service that rolls updates, else the
 * deployment the answer describes, else the active one (a scaling-only
 * update on a service that switches at once names none: the serving one).
 */
export function wantedDeploymentOf(agent: ServiceAgent): string {
  const described = agent.deployment?.id;
  return agent.desiredDeploymentId ?? (typeof described === "string" && described !== "" ? described : agent.activeDeploymentId);
}

/** The deployment the agent rolls out but does not serve yet; none when what it wants is what serves. */
export function pendingDeploymentOf(agent: ServiceAgent): string | undefined {
  const wanted = wantedDeploymentOf(agent);
  return wanted === agent.activeDeploymentId ? undefined : wanted;
}

/** Whether the service serves `deploymentId` (default: the deployment the agent itself wants) and both ready flags are true. */
export function isAgentReady(agent: ServiceAgent, deploymentId: string = wantedDeploymentOf(agent)): boolean {
  return agent.ready && agent.activeDeploymentReady && agent.deployment !== null && agent.activeDeploymentId === deploymentId;
}
