/**
 * TEMPORARY: the parts of the Agent model (src/model on main) the package
 * schema reads, until that model is merged into this branch. Same shapes and
 * names as src/model's AGENT_FIELDS / AGENT_OUTPUTS; delete on merge.
 */
export interface SchemaField {
  name: string;
  type: "string" | "boolean" | "integer" | "number" | "object";
  description: string;
  required?: boolean;
  default?: string | boolean | number;
  properties?: readonly { name: string; type: "integer" | "string"; description: string }[];
}

export const AGENT_FIELDS: readonly SchemaField[] = [
  { name: "serviceName", type: "string", required: true, description: "Name of the agent at the service: lowercase letters, digits and hyphens, starting and ending with a letter or digit, 1 to 54 characters. Changing it replaces the agent." },
  { name: "image", type: "string", required: true, description: "Container image with a tag (`name:tag`) or a digest (`name@sha256:...`). Pinning by digest is the safer practice." },
  { name: "nodeType", type: "string", default: "arm", description: 'Node type the agent runs on; only `"arm"`.' },
  { name: "imagePullSecretSet", type: "string", description: "Secret set holding the registry credentials for pulling the image (3 to 63 characters, a lowercase DNS subdomain)." },
  { name: "secretSet", type: "string", description: "Secret set whose fields the agent loads as environment variables (3 to 63 characters, a lowercase DNS subdomain)." },
  {
    name: "autoScaling", type: "object",
    description: "Scaling limits: integers, 0 ≤ minAgents ≤ maxAgents, maxAgents ≥ 1. Left out, the agent keeps the scaling it has at the service.",
    properties: [
      { name: "minAgents", type: "integer", description: "Fewest agents kept running, ≥ 0." },
      { name: "maxAgents", type: "integer", description: "Most agents, ≥ 1 and ≥ minAgents." },
    ],
  },
  { name: "enableNoise", type: "boolean", default: false, description: "Turns noise cancellation on." },
  { name: "waitForReady", type: "boolean", default: true, description: "Provider setting, never sent: wait until the agent and its deployment are ready before the step completes." },
  { name: "readyTimeoutSeconds", type: "number", default: 600, description: "Provider setting, never sent: how long to wait for readiness, 1 to 3600 seconds." },
];

export const AGENT_OUTPUTS: readonly (SchemaField & { reliedOn: boolean })[] = [
  { name: "name", type: "string", reliedOn: true, description: "The agent's name at the service (its serviceName)." },
  { name: "ready", type: "boolean", reliedOn: true, description: "Whether the agent accepts sessions, as of the last create, update or refresh." },
  { name: "activeDeploymentId", type: "string", reliedOn: true, description: "ID of the agent's active deployment. An update of anything but the scaling makes a new deployment." },
  { name: "activeDeploymentReady", type: "boolean", reliedOn: true, description: "Whether the active deployment is ready, as of the last create, update or refresh." },
  {
    name: "autoScaling", type: "object", reliedOn: true,
    description: "Scaling as the service reports it, `{ minReplicas, maxReplicas }` (the request's minAgents and maxAgents), whether or not the program declares it.",
    properties: [
      { name: "minReplicas", type: "integer", description: "Fewest agents kept running." },
      { name: "maxReplicas", type: "integer", description: "Most agents." },
    ],
  },
  { name: "createdAt", type: "string", reliedOn: false, description: "When the agent was created (date-time), when the service reports it." },
  { name: "updatedAt", type: "string", reliedOn: false, description: "When the agent was last updated (date-time), when the service reports it." },
  { name: "activeSessionCount", type: "integer", reliedOn: false, description: "Sessions active as of the last create, update or refresh, when the service reports it. Never causes a diff." },
  { name: "deployment", type: "object", reliedOn: false, description: "The active deployment as the service reports it; null while the service reports none." },
  { name: "manifest", type: "object", reliedOn: false, description: "The active deployment's manifest exactly as the service reports it (`apiVersion`, `kind`, `metadata`, `spec`); null while the service reports none." },
];

export interface FunctionField {
  name: string;
  type: "string" | "integer" | "object" | "array";
  description: string;
  required?: boolean;
  /** For an array: its items' type (a scalar, or an object's members). */
  items?: "string" | { typeName: string; properties: readonly FunctionField[] };
  /** For an object: its type's name and members. */
  object?: { typeName: string; properties: readonly FunctionField[] };
}

export interface SchemaFunction {
  name: "getSecretSet" | "getAgentLogs";
  description: string;
  args: readonly FunctionField[];
  result: readonly FunctionField[];
}

export const FUNCTIONS: readonly SchemaFunction[] = [
  {
    name: "getSecretSet",
    description: "The field names of a secret set (its values are never returned).",
    args: [{ name: "name", type: "string", required: true, description: "Name of the secret set, 3 to 63 characters." }],
    result: [
      { name: "name", type: "string", required: true, description: "Name of the secret set." },
      { name: "fieldNames", type: "array", items: "string", required: true, description: "Names of the set's fields." },
    ],
  },
  {
    name: "getAgentLogs",
    description: "One page of an agent's logs.",
    args: [
      { name: "agentName", type: "string", required: true, description: "Name of the agent." },
      { name: "limit", type: "integer", description: "Entries per page, 1 to 1000." },
      { name: "offset", type: "integer", description: "Entries to skip, ≥ 0." },
      { name: "deploymentId", type: "string", description: "Only this deployment's entries." },
      { name: "query", type: "string", description: "Only entries containing this text." },
      { name: "order", type: "string", description: 'Order by time: "asc" or "desc".' },
      { name: "startTime", type: "integer", description: "Only entries at or after this time, in Unix seconds." },
      { name: "endTime", type: "integer", description: "Only entries before this time, in Unix seconds." },
    ],
    result: [
      {
        name: "total", type: "object", required: true, description: "How many entries match.",
        object: {
          typeName: "LogTotal",
          properties: [
            { name: "value", type: "integer", required: true, description: "Number of matching entries, exact or a lower bound (see relation)." },
            { name: "relation", type: "string", required: true, description: '"eq" when exact, "gte" when a lower bound.' },
          ],
        },
      },
      {
        name: "logs", type: "array", required: true, description: "The page's entries.",
        items: {
          typeName: "LogEntry",
          properties: [
            { name: "log", type: "string", required: true, description: "The log line." },
            { name: "timestamp", type: "string", required: true, description: "When it was written (RFC 3339, nanoseconds kept)." },
          ],
        },
      },
    ],
  },
];

export const PROVIDER_CONFIG_FIELDS: readonly (SchemaField & { secret?: boolean })[] = [
  { name: "apiKey", type: "string", secret: true, description: "API key of the Agent Hosting Service account. Falls back to the environment variable AGENT_HOSTING_API_KEY." },
  { name: "baseUrl", type: "string", description: "Base URL of the service, ending in the version segment, e.g. https://api.example.com/v1. Falls back to the environment variable AGENT_HOSTING_BASE_URL." },
];
