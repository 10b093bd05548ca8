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
