/**
 * The outputs of Agent beyond its inputs: the service's answer. Each input is
 * an output too, with the value the service reports for it where it reports
 * one (so drift shows), else the declared value. Then the named object types
 * of the package schema for what the service reports of a deployment.
 */
import { outputTable } from "../../core/field-table";

export const AGENT_OUTPUTS = outputTable([
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
] as const);

export type AgentOutputName = (typeof AGENT_OUTPUTS)[number]["name"];

/**
 * The named object types of the package schema for what the service reports
 * of an agent's active deployment: `Deployment` (the Agent's `deployment`
 * output) and `Manifest` (its `manifest` output), with the members the service's API
 * document lists for them (service-agent.ts reads the same). Python and Go get typed
 * outputs from them. Every member is optional: the service may leave one out
 * or send more, and the plugin passes its answer through as it came (the
 * SDKs read the members declared here and ignore the others).
 */

/** A member of a named type: a scalar, a list of strings, or another named type. */
type Member =
  | { name: string; type: "string" | "boolean" | "integer"; description: string }
  | { name: string; type: "array"; description: string }
  | { name: string; typeName: string; description: string };

interface ObjectType {
  name: string;
  description: string;
  members: readonly Member[];
}

const TOLERANT = "Members the service adds beyond these stay in the state as it sent them; the SDKs read the members listed here.";

export const SERVICE_OBJECT_TYPES: readonly ObjectType[] = [
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

/** The schema's `types` entries of these object types, each under `token(name)`. */
export function serviceObjectTypes(token: (name: string) => string): Record<string, unknown> {
  const member = (m: Member) => {
    if ("typeName" in m) return { description: m.description, $ref: `#/types/${token(m.typeName)}` };
    if (m.type === "array") return { description: m.description, type: "array", items: { type: "string" } };
    return { description: m.description, type: m.type };
  };
  return Object.fromEntries(
    SERVICE_OBJECT_TYPES.map((t) => [
      token(t.name),
      { type: "object", description: t.description, properties: Object.fromEntries(t.members.map((m) => [m.name, member(m)])) },
    ]),
  );
}

/** The Agent outputs typed by these object types: output name → type name. */
export const TYPED_OUTPUTS: Readonly<Record<string, string>> = { deployment: "Deployment", manifest: "Manifest" };
