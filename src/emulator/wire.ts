/**
 * The JSON the emulator reads and writes on /v1, as its own reading of the
 * service's API: request bodies after validation, and the agent it serves.
 */
import type { ServiceAgent } from "../client/answer-types";

/** autoScaling in a request body. */
export interface AgentsScaling {
  minAgents: number;
  maxAgents: number;
}

/**
 * The fields an update body may carry (a create body adds serviceName).
 * `null` on an optional field means "none": the field is cleared.
 */
export interface UpdateBody {
  image?: string;
  nodeType?: string | null;
  secretSet?: string | null;
  imagePullSecretSet?: string | null;
  autoScaling?: AgentsScaling | null;
  enableNoise?: boolean | null;
}

export interface CreateBody extends UpdateBody {
  serviceName: string;
  image: string;
}

/** autoScaling in an answer (agent and manifest). */
export interface ReplicaScaling {
  minReplicas: number;
  maxReplicas: number;
}

/** An object of the answer; the "other reading" adds and removes members. */
export type JsonObject = Record<string, unknown>;

export interface ManifestJson extends JsonObject {
  apiVersion: string;
  kind: string;
  metadata: JsonObject & { name: string };
  /** The members a request determines, and the emulator's own. */
  spec: JsonObject;
}

export interface DeploymentJson extends JsonObject {
  id: string;
  manifest: ManifestJson;
}

/** The agent's JSON: the members every answer has (typed as the package reads them), and the emulator's own. */
export interface AgentJson extends JsonObject, Pick<ServiceAgent, "name" | "ready" | "activeDeploymentId" | "activeDeploymentReady"> {
  autoScaling: ReplicaScaling;
  deployment: DeploymentJson | null;
  /** Rolling rollout only: the latest deployment, the one the last create or update asked for. */
  desiredDeploymentId?: string;
  /** Rolling rollout only: whether the active deployment is ready, i.e. the agent serves sessions. */
  available?: boolean;
}

/** A rule a request breaks: the field (dotted path) and what the rule requires. */
export interface Violation {
  property: string;
  reason: string;
}
