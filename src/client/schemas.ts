/**
 * zod schemas of every request and response shape of the service document
 * (spec sections 2 and 4) and of design section 5.
 *
 * Responses are parsed loosely (unknown extra fields pass through) but every
 * documented field must be present with its documented type.
 */
import { z } from "zod";
import {
  autoScalingRequestSchema,
  imageSchema,
  nodeTypeSchema,
  secretSetNameSchema,
  serviceNameSchema,
} from "./rule-schemas";

// ---- requests -------------------------------------------------------------

export const updateAgentBodySchema = z
  .object({
    image: imageSchema,
    nodeType: nodeTypeSchema.optional(),
    imagePullSecretSet: secretSetNameSchema.optional(),
    secretSet: secretSetNameSchema.optional(),
    autoScaling: autoScalingRequestSchema.optional(),
    enableNoise: z.boolean().optional(),
  })
  .strict();

export const createAgentBodySchema = updateAgentBodySchema.extend({ serviceName: serviceNameSchema }).strict();

export type CreateAgentBody = z.infer<typeof createAgentBodySchema>;
export type UpdateAgentBody = z.infer<typeof updateAgentBodySchema>;
export type AutoScalingRequest = z.infer<typeof autoScalingRequestSchema>;

export const logOrderSchema = z.enum(["asc", "desc"]);
export type LogOrder = z.infer<typeof logOrderSchema>;

/** Query of GET /agents/{name}/logs (spec 4.2). Times are Unix seconds. */
export interface AgentLogsQuery {
  agentName: string;
  limit?: number;
  offset?: number;
  deploymentId?: string;
  query?: string;
  order?: LogOrder;
  startTime?: number | Date;
  endTime?: number | Date;
}

// ---- responses ------------------------------------------------------------

export const autoScalingSchema = z.object({
  minReplicas: z.number().int(),
  maxReplicas: z.number().int(),
});

export const manifestSchema = z.object({
  apiVersion: z.string().regex(/^[^/]+\/v1$/, { error: "must have the form <group>/v1" }),
  kind: z.string(),
  metadata: z.object({
    name: z.string(),
    namespace: z.string(),
  }),
  spec: z.object({
    platformNodeType: z.string(),
    clusterLocal: z.boolean(),
    image: z.string(),
    autoScaling: autoScalingSchema,
    envFromSecretNames: z.array(z.string()),
    noiseModels: z.object({ enabled: z.boolean() }),
    /**
     * Not in the service document ("how imagePullSecretSet appears in the
     * manifest: not shown"); the emulator reports it here. Optional, so a
     * service without it still validates.
     */
    imagePullSecretNames: z.array(z.string()).optional(),
  }),
});

export const deploymentSchema = z.object({
  id: z.string(),
  manifest: manifestSchema,
  serviceId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const agentSchema = z.object({
  name: z.string(),
  ready: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  activeDeploymentId: z.string(),
  activeDeploymentReady: z.boolean(),
  autoScaling: autoScalingSchema,
  activeSessionCount: z.number().int(),
  deployment: deploymentSchema.nullable(),
});

export const logEntrySchema = z.object({
  log: z.string(),
  /** Kept as the service's string: nanoseconds are not rounded away. */
  timestamp: z.string(),
});

export const logResultSchema = z.object({
  total: z.object({ value: z.number().int(), relation: z.string() }),
  logs: z.array(logEntrySchema),
});

export const secretSetSchema = z.object({
  secrets: z.array(z.object({ fieldName: z.string() })),
});

export const deleteResultSchema = z.object({ status: z.string() });

export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
});

export type AutoScaling = z.infer<typeof autoScalingSchema>;
export type Manifest = z.infer<typeof manifestSchema>;
export type Deployment = z.infer<typeof deploymentSchema>;
export type Agent = z.infer<typeof agentSchema>;
export type LogEntry = z.infer<typeof logEntrySchema>;
export type LogResult = z.infer<typeof logResultSchema>;
export type SecretSet = z.infer<typeof secretSetSchema>;
export type ErrorBody = z.infer<typeof errorBodySchema>;
