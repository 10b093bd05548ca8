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

/** A row of a table of members: [name, type, description]. */
type MemberRow<T> = readonly [string, T, string];

/** Members `{ name, type, description }` from their rows. */
function membersOf<T>(rows: readonly MemberRow<T>[]): { name: string; type: T; description: string }[] {
  return rows.map(([name, type, description]) => ({ name, type, description }));
}

/** The TypeScript type of each scalar type of an answer. */
const TS_TYPE_OF = { string: "string", boolean: "boolean", integer: "number" } as const;

/**
 * The row builder of the agent's scalar members: `reliedOn` when every answer
 * has it (the package relies on it and checks it), `optional` when the
 * service may leave it out. The TypeScript type is the scalar type's.
 */
function scalarMember<R extends boolean>(reliedOn: R) {
  return <N extends string, T extends keyof typeof TS_TYPE_OF>(name: N, type: T, description: string) => ({ name, type, tsType: TS_TYPE_OF[type], description, reliedOn }) as const;
}
const reliedOn = scalarMember(true);
const optional = scalarMember(false);

/**
 * The agent as the service answers it, member by member (its deployment's
 * manifest is the deployment's `manifest`, SERVICE_OBJECT_TYPES).
 */
export const AGENT_ANSWER_MEMBERS = [
  reliedOn("name", "string", "The agent's name at the service (its serviceName). Known in previews, but for a create previewed by the native plugin, where it is unknown like the ID until the agent exists."),
  reliedOn("ready", "boolean", "Whether the agent accepts sessions, as of the last create, update or refresh."),
  reliedOn("activeDeploymentId", "string", "ID of the agent's active deployment. An update of anything but the scaling makes a new deployment."),
  reliedOn("activeDeploymentReady", "boolean", "Whether the active deployment is ready, as of the last create, update or refresh."),
  {
    name: "autoScaling",
    type: "object",
    tsType: "{ minReplicas: number; maxReplicas: number }",
    description:
      "Scaling as the service reports it, `{ minReplicas, maxReplicas }` (the request's minAgents and maxAgents), whether or not the program declares it.",
    reliedOn: true,
    properties: membersOf<"integer">([
      ["minReplicas", "integer", "Fewest agents kept running."],
      ["maxReplicas", "integer", "Most agents."],
    ]),
  },
  optional("available", "boolean", "Whether the agent serves sessions (its active deployment does), as of the last create, update or refresh, when the service reports it. A service that rolls updates keeps the old deployment serving while a new one validates."),
  optional("desiredDeploymentId", "string", "ID of the deployment the service rolls out, when the service reports it: it equals `activeDeploymentId` once that deployment serves; while it differs, the old deployment serves and this one is pending (it has not validated yet, or never does)."),
  optional("createdAt", "string", "When the agent was created (date-time), when the service reports it."),
  optional("updatedAt", "string", "When the agent was last updated (date-time), when the service reports it."),
  optional("activeSessionCount", "integer", "Sessions active as of the last create, update or refresh, when the service reports it. Never causes a diff."),
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

/**
 * A named type of what the service reports, its description ending with what
 * happens to the members it does not list. A member's type is a scalar type,
 * "array" (of strings) or another named type.
 */
function serviceObjectType(name: string, description: string, rows: readonly MemberRow<"string" | "boolean" | "integer" | "array" | { typeName: string }>[]): ServiceObjectType {
  const members = rows.map(([member, type, about]): ServiceObjectMember => (typeof type === "string" ? { name: member, type, description: about } : { name: member, typeName: type.typeName, description: about }));
  return { name, description: `${description} Members the service adds beyond these stay in the state as it sent them; the SDKs read the members listed here.`, members };
}

export const SERVICE_OBJECT_TYPES: readonly ServiceObjectType[] = [
  serviceObjectType("Deployment", "The agent's active deployment as the service reports it, without its manifest (the Agent's `manifest` output).", [
    ["id", "string", "ID of the deployment; equals the agent's activeDeploymentId while it is the active deployment."],
    ["serviceId", "string", "ID of the service the deployment belongs to."],
    ["createdAt", "string", "When the deployment was created (date-time)."],
    ["updatedAt", "string", "When the deployment was last updated (date-time)."],
  ]),
  serviceObjectType("Manifest", "The manifest of the agent's active deployment: the description of the deployed service as the service reports it.", [
    ["apiVersion", "string", "Version label of the manifest format, of the form `<group>/v1`."],
    ["kind", "string", "Kind of the manifest object."],
    ["metadata", { typeName: "ManifestMetadata" }, "The agent's name and namespace."],
    ["spec", { typeName: "ManifestSpec" }, "What the deployment runs: the requested image, node type, secret sets, scaling and noise cancellation."],
  ]),
  serviceObjectType("ManifestMetadata", "The manifest's metadata.", [
    ["name", "string", "The agent's name."],
    ["namespace", "string", "The namespace the agent lives in, assigned by the service."],
  ]),
  serviceObjectType("ManifestSpec", "The manifest's spec: the deployment's request as the service reports it.", [
    ["image", "string", "The container image (the Agent's `image`)."],
    ["platformNodeType", "string", "The node type (the Agent's `nodeType`)."],
    ["clusterLocal", "boolean", "A flag the service reports; what sets it is not documented by the service."],
    ["imagePullSecretNames", "array", "Secret sets holding the registry credentials: the Agent's `imagePullSecretSet`, or empty."],
    ["envFromSecretNames", "array", "Secret sets the agent loads as environment variables: the Agent's `secretSet`, or empty."],
    ["autoScaling", { typeName: "AgentAutoScalingStatus" }, "The scaling limits, `{ minReplicas, maxReplicas }` (the Agent's `autoScaling`)."],
    ["noiseModels", { typeName: "ManifestNoiseModels" }, "Noise cancellation (the Agent's `enableNoise`)."],
  ]),
  serviceObjectType("ManifestNoiseModels", "Noise cancellation in the manifest's spec.", [["enabled", "boolean", "Whether noise cancellation is on (the Agent's `enableNoise`)."]]),
];

/** An object type whose members are all required scalars: [name, type, description]. */
function members(typeName: string, fields: readonly MemberRow<"string" | "integer">[]) {
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
