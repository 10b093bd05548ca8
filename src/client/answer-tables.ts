/**
 * What the service answers, as tables the answer models are built from
 * (src/client/answer-model.ts): the agent's members, the named object types
 * of its deployment and manifest, and a page of logs. The Agent's outputs
 * table (src/resources/agent/fields.ts) and the functions' results
 * (src/functions/function-fields.ts) reuse them.
 */

/** A documented field of a function's arguments or results (and of an answer read by a function). */
export interface DocumentedField {
  name: string;
  type: "string" | "integer" | "object" | "array";
  description: string;
  required?: boolean;
  /** For an array: its items' type (a scalar, or an object's members). */
  items?: "string" | { typeName: string; properties: readonly DocumentedField[] };
  /** For an object: its type's name and members. */
  object?: { typeName: string; properties: readonly DocumentedField[] };
  /** The TypeScript type, where it is narrower than `type` (a union of literals), and the name the generated types give it. */
  tsType?: { type: string; name: string };
  /** The dynamic package's TypeScript forms also accept a Date here, sent as Unix seconds (the native plugin's take seconds only). */
  acceptsDate?: true;
}

/** A member of the agent's answer. */
export interface AgentAnswerMember {
  name: string;
  type: "string" | "boolean" | "integer" | "object";
  tsType: string;
  description: string;
  /** Whether every answer has it: the package relies on it and checks it. */
  reliedOn: boolean;
  /** Properties of the object. */
  properties?: readonly { name: string; type: "integer" | "string"; description: string }[];
}

/**
 * The agent as the service answers it, member by member (its deployment's
 * manifest is the deployment's `manifest`, SERVICE_OBJECT_TYPES).
 */
export const AGENT_ANSWER_MEMBERS = [
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
] as const;

/** The agent's answer members as plain entries. */
export const AGENT_ANSWER: readonly AgentAnswerMember[] = AGENT_ANSWER_MEMBERS;

/**
 * The named object types of what the service reports of an agent's active
 * deployment: `Deployment` (the Agent's `deployment` output) and `Manifest`
 * (its `manifest` output), with the members the service's API document lists
 * for them. The package schema names them too (Python and Go get typed
 * outputs from them: src/resources/agent/fields.ts). Every member is
 * optional: the service may leave one out or send more, and the plugin
 * passes its answer through as it came (the SDKs read the members declared
 * here and ignore the others).
 */

/** A member of a named type: a scalar, a list of strings, or another named type. */
export type ServiceObjectMember =
  | { name: string; type: "string" | "boolean" | "integer"; description: string }
  | { name: string; type: "array"; description: string }
  | { name: string; typeName: string; description: string };

export interface ServiceObjectType {
  name: string;
  description: string;
  members: readonly ServiceObjectMember[];
}

const TOLERANT = "Members the service adds beyond these stay in the state as it sent them; the SDKs read the members listed here.";

export const SERVICE_OBJECT_TYPES: readonly ServiceObjectType[] = [
  {
    name: "Deployment",
    description: `The agent's active deployment as the service reports it, without its manifest (the Agent's \`manifest\` output). ${TOLERANT}`,
    members: [
      { name: "id", type: "string", description: "ID of the deployment; equals the agent's activeDeploymentId while it is the active deployment." },
      { name: "serviceId", type: "string", description: "ID of the service the deployment belongs to." },
      { name: "createdAt", type: "string", description: "When the deployment was created (date-time)." },
      { name: "updatedAt", type: "string", description: "When the deployment was last updated (date-time)." },
    ],
  },
  {
    name: "Manifest",
    description: `The manifest of the agent's active deployment: the description of the deployed service as the service reports it. ${TOLERANT}`,
    members: [
      { name: "apiVersion", type: "string", description: "Version label of the manifest format, of the form `<group>/v1`." },
      { name: "kind", type: "string", description: "Kind of the manifest object." },
      { name: "metadata", typeName: "ManifestMetadata", description: "The agent's name and namespace." },
      { name: "spec", typeName: "ManifestSpec", description: "What the deployment runs: the requested image, node type, secret sets, scaling and noise cancellation." },
    ],
  },
  {
    name: "ManifestMetadata",
    description: `The manifest's metadata. ${TOLERANT}`,
    members: [
      { name: "name", type: "string", description: "The agent's name." },
      { name: "namespace", type: "string", description: "The namespace the agent lives in, assigned by the service." },
    ],
  },
  {
    name: "ManifestSpec",
    description: `The manifest's spec: the deployment's request as the service reports it. ${TOLERANT}`,
    members: [
      { name: "image", type: "string", description: "The container image (the Agent's `image`)." },
      { name: "platformNodeType", type: "string", description: "The node type (the Agent's `nodeType`)." },
      { name: "clusterLocal", type: "boolean", description: "A flag the service reports; what sets it is not documented by the service." },
      { name: "imagePullSecretNames", type: "array", description: "Secret sets holding the registry credentials: the Agent's `imagePullSecretSet`, or empty." },
      { name: "envFromSecretNames", type: "array", description: "Secret sets the agent loads as environment variables: the Agent's `secretSet`, or empty." },
      { name: "autoScaling", typeName: "AgentAutoScalingStatus", description: "The scaling limits, `{ minReplicas, maxReplicas }` (the Agent's `autoScaling`)." },
      { name: "noiseModels", typeName: "ManifestNoiseModels", description: "Noise cancellation (the Agent's `enableNoise`)." },
    ],
  },
  {
    name: "ManifestNoiseModels",
    description: `Noise cancellation in the manifest's spec. ${TOLERANT}`,
    members: [{ name: "enabled", type: "boolean", description: "Whether noise cancellation is on (the Agent's `enableNoise`)." }],
  },
];

/** An object type whose members are all required scalars: [name, type, description]. */
function members(typeName: string, fields: readonly (readonly [string, "string" | "integer", string])[]) {
  return { typeName, properties: fields.map(([name, type, description]) => ({ name, type, required: true, description })) };
}

/** One page of an agent's logs (GET /agents/{name}/logs): getAgentLogs's result. */
export const LOG_RESULT_FIELDS: readonly DocumentedField[] = [
  {
    name: "total", type: "object", required: true, description: "How many entries match.",
    object: members("LogTotal", [
      ["value", "integer", "Number of matching entries, exact or a lower bound (see relation)."],
      ["relation", "string", '"eq" when exact, "gte" when a lower bound.'],
    ]),
  },
  {
    name: "logs", type: "array", required: true, description: "The page's entries.",
    items: members("LogEntry", [
      ["log", "string", "The log line."],
      ["timestamp", "string", "When it was written (RFC 3339, nanoseconds kept)."],
    ]),
  },
];
