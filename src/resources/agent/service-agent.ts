/**
 * The service's Agent as the package reads it: only the fields it relies on
 * are typed and checked; everything else the service sends is kept as it came.
 */
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

export interface ServiceAgent {
  /** The members every answer has (the Agent's outputs of the same names). */
  name: string;
  ready: boolean;
  activeDeploymentId: string;
  activeDeploymentReady: boolean;
  autoScaling: Replicas;
  /** Null while the service has not made it yet; absent when the service never reports it. */
  deployment?: Deployment | null;
  createdAt?: string;
  updatedAt?: string;
  activeSessionCount?: number;
  /** A service that rolls updates: the deployment it rolls out (equal to activeDeploymentId once that one serves). */
  desiredDeploymentId?: string;
  /** A service that rolls updates: whether the agent serves sessions (its active deployment does). */
  available?: boolean;
  [extra: string]: unknown;
}

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
