/**
 * The Agent in the document's full shape, for tests of a service that sends
 * every documented field (the emulator in its default reading): parses an
 * answer strictly and returns it typed, so a test can read
 * `documented(agent).deployment.manifest.spec.image` directly. The package
 * itself reads answers tolerantly (src/client/schemas.ts).
 */
import { z } from "zod";

const replicas = z.object({ minReplicas: z.number().int(), maxReplicas: z.number().int() });

export const documentedAgentSchema = z.object({
  name: z.string(),
  ready: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  activeDeploymentId: z.string(),
  activeDeploymentReady: z.boolean(),
  autoScaling: replicas,
  activeSessionCount: z.number().int(),
  deployment: z.object({
    id: z.string(),
    serviceId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    manifest: z.object({
      apiVersion: z.string().regex(/^[^/]+\/v1$/),
      kind: z.string(),
      metadata: z.object({ name: z.string(), namespace: z.string() }),
      spec: z.object({
        platformNodeType: z.string(),
        clusterLocal: z.boolean(),
        image: z.string(),
        autoScaling: replicas,
        envFromSecretNames: z.array(z.string()),
        noiseModels: z.object({ enabled: z.boolean() }),
        imagePullSecretNames: z.array(z.string()).optional(),
      }),
    }),
  }),
});

export type DocumentedAgent = z.infer<typeof documentedAgentSchema>;

/** The answer, checked against every documented field (a deployment is required). */
export function documented(agent: unknown): DocumentedAgent {
  return documentedAgentSchema.parse(agent);
}
