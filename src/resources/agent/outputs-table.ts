/**
 * The outputs of Agent beyond its inputs: the service's answer. Each input is
 * an output too, with the value the service reports for it where it reports
 * one (so drift shows), else the declared value.
 */
import type { OutputFieldSpec } from "../../core/field-table";

export const AGENT_OUTPUTS = [
  {
    name: "name",
    type: "string",
    tsType: "string",
    description: "The agent's name at the service (its serviceName). Known in previews, but for a create previewed by the native plugin, where it is unknown like the ID until the agent exists.",
    reliedOn: true,
  },
  {
    name: "ready",
    type: "boolean",
    tsType: "boolean",
    description: "Whether the agent accepts sessions, as of the last create, update or refresh.",
    reliedOn: true,
  },
  {
    name: "activeDeploymentId",
    type: "string",
    tsType: "string",
    description: "ID of the agent's active deployment. An update of anything but the scaling makes a new deployment.",
    reliedOn: true,
  },
  {
    name: "activeDeploymentReady",
    type: "boolean",
    tsType: "boolean",
    description: "Whether the active deployment is ready, as of the last create, update or refresh.",
    reliedOn: true,
  },
  {
    name: "autoScaling",
    type: "object",
    tsType: "{ minReplicas: number; maxReplicas: number }",
    description:
      "Scaling as the service reports it, `{ minReplicas, maxReplicas }` (the request's minAgents and maxAgents), whether or not the program declares it.",
    reliedOn: true,
    properties: [
      { name: "minReplicas", type: "integer", description: "Fewest agents kept running." },
      { name: "maxReplicas", type: "integer", description: "Most agents." },
    ],
  },
  {
    name: "available",
    type: "boolean",
    tsType: "boolean",
    description:
      "Whether the agent serves sessions (its active deployment does), as of the last create, update or refresh, when the service reports it. A service that rolls updates keeps the old deployment serving while a new one validates.",
    reliedOn: false,
  },
  {
    name: "desiredDeploymentId",
    type: "string",
    tsType: "string",
    description:
      "ID of the deployment the service rolls out, when the service reports it: it equals `activeDeploymentId` once that deployment serves; while it differs, the old deployment serves and this one is pending (it has not validated yet, or never does).",
    reliedOn: false,
  },
  {
    name: "createdAt",
    type: "string",
    tsType: "string",
    description: "When the agent was created (date-time), when the service reports it.",
    reliedOn: false,
  },
  {
    name: "updatedAt",
    type: "string",
    tsType: "string",
    description: "When the agent was last updated (date-time), when the service reports it.",
    reliedOn: false,
  },
  {
    name: "activeSessionCount",
    type: "integer",
    tsType: "number",
    description: "Sessions active as of the last create, update or refresh, when the service reports it. Never causes a diff.",
    reliedOn: false,
  },
  {
    name: "deployment",
    type: "object",
    tsType: "Deployment | null",
    description:
      "The deployment as the service reports it (`id`, `serviceId`, `createdAt`, `updatedAt` and any other field it sends), without its manifest, which is the `manifest` output: the active one, or while an update rolls out, the pending one (`desiredDeploymentId`); null while the service reports none.",
    reliedOn: false,
  },
  {
    name: "manifest",
    type: "object",
    tsType: "Manifest | null",
    description:
      "The manifest of the deployment the `deployment` output describes, exactly as the service reports it (`apiVersion`, `kind`, `metadata`, `spec` and any other field); null while the service reports none. Secret when any input it reflects is secret.",
    reliedOn: false,
  },
] as const satisfies readonly OutputFieldSpec[];

export type AgentOutputName = (typeof AGENT_OUTPUTS)[number]["name"];
