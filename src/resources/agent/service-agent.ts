/**
 * The service's Agent as the package reads it: only the fields it relies on
 * are typed and checked; everything else the service sends is kept as it came.
 */
import type { AgentOutputs } from "./inputs-outputs";

export interface Replicas {
  minReplicas: number;
  maxReplicas: number;
  [extra: string]: unknown;
}

/** `manifest.spec`: every member is read defensively, through the field table's mappings. */
export type ManifestSpec = Record<string, unknown>;

export interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: Record<string, unknown>;
  spec?: ManifestSpec;
  [extra: string]: unknown;
}

export interface Deployment {
  id?: string;
  manifest?: Manifest;
  serviceId?: string;
  createdAt?: string;
  updatedAt?: string;
  [extra: string]: unknown;
}

/** The members every answer has, typed as the Agent's outputs of the same names. */
type ReliedOn = Pick<AgentOutputs, "name" | "ready" | "activeDeploymentId" | "activeDeploymentReady">;

export interface ServiceAgent extends ReliedOn {
  autoScaling: Replicas;
  /** Null while the service has not made it yet; absent when the service never reports it. */
  deployment?: Deployment | null;
  createdAt?: string;
  updatedAt?: string;
  activeSessionCount?: number;
  [extra: string]: unknown;
}

/** Whether the agent and its active deployment are ready (and, after an update, the expected deployment is active). */
export function isAgentReady(agent: ServiceAgent, deploymentId?: string): boolean {
  return (
    agent.ready &&
    agent.activeDeploymentReady &&
    agent.deployment !== null &&
    (deploymentId === undefined || agent.activeDeploymentId === deploymentId)
  );
}
