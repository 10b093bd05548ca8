/**
 * zod schemas of the service's answers, tolerant: only what the package
 * relies on is checked (the agent's name, activeDeploymentId, the two ready
 * flags, autoScaling, and deployment when present); every other field is
 * kept as the service sent it, and fields the API lists but does not
 * promise may be absent or null.
 */
import { z } from "zod";
import type { ServiceAgent } from "../resources/agent/model";

export type { CreateAgentBody, UpdateAgentBody, AutoScalingRequest } from "./bodies";
export type { Deployment, Manifest, ServiceAgent as Agent } from "../resources/agent/model";

export const logOrderSchema = z.enum(["asc", "desc"]);
export type LogOrder = z.infer<typeof logOrderSchema>;

/** Query of GET /agents/{name}/logs. Times are Unix seconds (a Date is also accepted). */
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

export const autoScalingSchema = z.looseObject({
  minReplicas: z.number().int(),
  maxReplicas: z.number().int(),
});

/** A deployment, when present, must be an object; its members are read defensively. */
const deploymentSchema = z.looseObject({
  id: z.string().nullish(),
  manifest: z.looseObject({ spec: z.looseObject({}).nullish() }).nullish(),
});

export const agentSchema = z.looseObject({
  name: z.string(),
  ready: z.boolean(),
  activeDeploymentId: z.string(),
  activeDeploymentReady: z.boolean(),
  autoScaling: autoScalingSchema,
  deployment: deploymentSchema.nullish(),
  // A service that rolls updates names the deployment it rolls out and whether the agent serves meanwhile.
  desiredDeploymentId: z.string().nullish(),
  available: z.boolean().nullish(),
});

/** The parsed agent, with members the service sent as null left out. */
export function asServiceAgent(parsed: z.infer<typeof agentSchema>): ServiceAgent {
  const agent: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) if (value !== null || key === "deployment") agent[key] = value;
  return agent as ServiceAgent;
}

export const logEntrySchema = z.object({
  log: z.string(),
  /** Kept as the service's string: nanoseconds are not rounded away. */
  timestamp: z.string(),
});

export const logResultSchema = z.object({
  total: z.object({ value: z.number().int(), relation: z.string() }),
  logs: z.array(logEntrySchema),
});

export const secretSetSchema = z.looseObject({
  secrets: z.array(z.looseObject({ fieldName: z.string() })),
});

export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
});

export type LogEntry = z.infer<typeof logEntrySchema>;
export type LogResult = z.infer<typeof logResultSchema>;
export type SecretSet = z.infer<typeof secretSetSchema>;
export type ErrorBody = z.infer<typeof errorBodySchema>;
