/**
 * Values the unit, integration and end-to-end tests share: a valid image, an
 * API key that tests search for in every output (it must never appear), and
 * a valid Agent answer of the service.
 */
import type { DocumentedAgent } from "./documented-agent";

/** A valid image reference with a registry, a path and a tag. */
export const IMAGE = "registry.example.com/voice-bot:1.4.2";

/** The API key the tests give the client, the provider and the emulator. "SECRET" in it makes a leak easy to spot. */
export const API_KEY = "sk-test-SECRET-123";

export interface AgentJsonOptions {
  name?: string;
  image?: string;
  minReplicas?: number;
  maxReplicas?: number;
  envFromSecretNames?: string[];
  noise?: boolean;
  nodeType?: string;
  ready?: boolean;
  deploymentId?: string;
}

/** The service's Agent answer with every documented field. */
export type AgentJson = DocumentedAgent;

const CREATED_AT = "2024-05-01T10:00:00Z";

/** A valid Agent answer: `voice-bot` running IMAGE, 1..3 replicas, not ready; `options` change single fields. */
export function agentJson(options: AgentJsonOptions = {}): AgentJson {
  const name = options.name ?? "voice-bot";
  const autoScaling = { minReplicas: options.minReplicas ?? 1, maxReplicas: options.maxReplicas ?? 3 };
  const deploymentId = options.deploymentId ?? "dep-1";
  return {
    name,
    ready: options.ready ?? false,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    activeDeploymentId: deploymentId,
    activeDeploymentReady: options.ready ?? false,
    autoScaling,
    activeSessionCount: 0,
    deployment: {
      id: deploymentId,
      serviceId: "svc-1",
      createdAt: CREATED_AT,
      updatedAt: CREATED_AT,
      manifest: {
        apiVersion: "x.test/v1",
        kind: "Agent",
        metadata: { name, namespace: "ns-1" },
        spec: {
          platformNodeType: options.nodeType ?? "arm",
          clusterLocal: false,
          image: options.image ?? IMAGE,
          autoScaling,
          envFromSecretNames: options.envFromSecretNames ?? [],
          noiseModels: { enabled: options.noise ?? false },
        },
      },
    },
  };
}

/** The manifest spec of an agent as any reading of the document sends it ({} when it sends none). */
export function specOf(agent: { deployment?: { manifest?: { spec?: Record<string, unknown> | null } | null } | null }): Record<string, unknown> {
  return agent.deployment?.manifest?.spec ?? {};
}
