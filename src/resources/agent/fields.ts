/**
 * The Agent's fields, once: its inputs with their types, rules, defaults,
 * whether the service receives them, whether a change replaces the agent,
 * what leaving one out means and where the service reports each one in the
 * manifest; the rules of its own provider settings (the rules of the fields
 * it sends are the service's: src/client/agent-body.ts,
 * src/client/service-names.ts); and its outputs beyond the inputs, the
 * service's answer (members from src/client/answer-tables.ts) and the
 * deployment's manifest, with the schema's object types for what the
 * service reports of a deployment.
 *
 * Everything else derives from these tables: the checks of `check`, the
 * diff, the create and update bodies, the inputs rebuilt on refresh, the
 * outputs, the generated TypeScript types, the README's reference and the
 * package schema.
 */
import { AGENT_BODY, scalingFromReplicas } from "../../client/agent-body";
import { AGENT_ANSWER_MEMBERS, SERVICE_OBJECT_TYPES } from "../../client/answer-tables";
import type { ServiceObjectMember } from "../../client/answer-tables";
import { BOOLEAN_RULES, NOT_BLANK, integerTests, objectRules, stringTests } from "../../client/field-rules";
import type { FieldRules } from "../../client/field-rules";
import { fieldTable, outputTable } from "../../core/field-table";

const READY_TIMEOUT_RULES: FieldRules = {
  tests: [{ is: "number", reason: "must be a number" }, { range: { min: 1, max: 3600 }, reason: "must be between 1 and 3600 seconds" }],
};

const REDEPLOY_TRIGGER_RULES: FieldRules = { tests: stringTests({ length: { max: 256 }, reason: "must be at most 256 characters" }) };

const ON_FAILURE_RULES: FieldRules = { tests: [{ oneOf: ["keep", "rollback"], reason: 'must be "keep" or "rollback"' }] };

/** healthCheck { failOnLogQuery, watchSeconds }: a non-empty query, an integer 1 ≤ watchSeconds ≤ 3600. Unknown members pass. */
const HEALTH_CHECK_RULES: FieldRules = objectRules([
  {
    name: "failOnLogQuery",
    tests: stringTests({ matches: NOT_BLANK, reason: "must not be empty: it is the text whose appearance in the new deployment's logs fails it" }),
  },
  { name: "watchSeconds", tests: integerTests("must be an integer from 1 to 3600", { min: 1, max: 3600 }) },
]);

/** requiredSecrets: a list of distinct, non-empty field names of the secret set (its items may be unknown in a preview), which needs secretSet. */
const REQUIRED_SECRETS_RULES: FieldRules = {
  list: {
    notList: "must be a list of field names of secretSet",
    items: [
      { is: "string", reason: "must be a non-empty field name" },
      { matches: NOT_BLANK, reason: "must be a non-empty field name" },
    ],
    duplicate: 'duplicate of "{item}"',
  },
  needs: { field: "secretSet", reason: "needs secretSet: the set whose fields it names" },
};

/** drainSeconds: how long a delete waits for the agent's live sessions to end, an integer from 0 to 14400. */
const DRAIN_SECONDS_RULES: FieldRules = {
  tests: integerTests("must be an integer from 0 to 14400", { min: 0, max: 14400 }, "must be an integer from 0 to 14400"),
};

/** A secret set the agent names (a service field; left out, it is cleared), as the service takes and reports it. */
function secretSetField<N extends "imagePullSecretSet" | "secretSet">(name: N, description: string) {
  return {
    name,
    type: "string",
    tsType: "string",
    description,
    required: false,
    sentTo: "service",
    change: "update",
    undeclared: "clear",
    rules: AGENT_BODY[name].rules,
    manifest: AGENT_BODY[name].manifest,
  } as const;
}

export const AGENT_FIELDS = fieldTable([
  {
    name: "serviceName",
    type: "string",
    tsType: "string",
    description:
      "Name of the agent at the service: lowercase letters, digits and hyphens, starting and ending with a letter or digit, 1 to 54 characters. Changing it replaces the agent.",
    required: true,
    sentTo: "service",
    change: "replace",
    undeclared: "required",
    rules: AGENT_BODY.serviceName.rules,
  },
  {
    name: "image",
    type: "string",
    tsType: "string",
    description: "Container image with a tag (`name:tag`) or a digest (`name@sha256:...`). Pinning by digest is the safer practice.",
    required: true,
    sentTo: "service",
    change: "update",
    undeclared: "required",
    rules: AGENT_BODY.image.rules,
    manifest: AGENT_BODY.image.manifest,
  },
  {
    name: "nodeType",
    type: "string",
    tsType: '"arm"',
    description: 'Node type the agent runs on; only `"arm"`.',
    required: false,
    default: "arm",
    sentTo: "service",
    change: "update",
    undeclared: "default",
    rules: AGENT_BODY.nodeType.rules,
    manifest: AGENT_BODY.nodeType.manifest,
  },
  secretSetField(
    "imagePullSecretSet",
    "Secret set holding the registry credentials for pulling the image (3 to 63 characters, a lowercase DNS subdomain).",
  ),
  secretSetField(
    "secretSet",
    "Secret set whose fields the agent loads as environment variables (3 to 63 characters, a lowercase DNS subdomain).",
  ),
  {
    name: "autoScaling",
    type: "object",
    tsType: "{ minAgents: number; maxAgents: number }",
    description: "Scaling limits: integers, 0 ≤ minAgents ≤ maxAgents, maxAgents ≥ 1. Left out, the agent keeps the scaling it has at the service.",
    required: false,
    sentTo: "service",
    change: "update",
    undeclared: "keep",
    rules: AGENT_BODY.autoScaling.rules,
    manifest: AGENT_BODY.autoScaling.manifest,
    properties: [
      { name: "minAgents", type: "integer", description: "Fewest agents kept running, ≥ 0.", answerName: "minReplicas" },
      { name: "maxAgents", type: "integer", description: "Most agents, ≥ 1 and ≥ minAgents.", answerName: "maxReplicas" },
    ],
    answer: { output: (agent) => agent.autoScaling, input: (agent) => scalingFromReplicas(agent.autoScaling) },
    newDeployment: false,
  },
  {
    name: "enableNoise",
    type: "boolean",
    tsType: "boolean",
    description: "Turns noise cancellation on.",
    required: false,
    default: false,
    sentTo: "service",
    change: "update",
    undeclared: "default",
    rules: AGENT_BODY.enableNoise.rules,
    manifest: AGENT_BODY.enableNoise.manifest,
  },
  {
    name: "waitForReady",
    type: "boolean",
    tsType: "boolean",
    description: "Provider setting, never sent: wait until the agent and its deployment are ready before the step completes.",
    required: false,
    default: true,
    sentTo: "provider",
    change: "local",
    undeclared: "default",
    rules: BOOLEAN_RULES,
  },
  {
    name: "readyTimeoutSeconds",
    type: "number",
    tsType: "number",
    description: "Provider setting, never sent: how long to wait for readiness, 1 to 3600 seconds.",
    required: false,
    default: 600,
    sentTo: "provider",
    change: "local",
    undeclared: "default",
    rules: READY_TIMEOUT_RULES,
  },
  {
    name: "redeployTrigger",
    type: "string",
    tsType: "string",
    description:
      "Provider setting, never sent: any string; changing it makes a new deployment of the same spec (an update in place). With pinning on (the default), a tag pushed again is already an update; use it to roll out a new deployment of the same build, or a new push to a tag of an agent that does not pin (`pinImageDigest: false`).",
    required: false,
    sentTo: "provider",
    change: "update",
    undeclared: "clear",
    rules: REDEPLOY_TRIGGER_RULES,
  },
  {
    name: "onFailure",
    type: "string",
    tsType: '"keep" | "rollback"',
    description:
      'Provider setting, never sent: what happens when a new deployment is not ready within the wait or fails its health check. `"keep"` leaves it in place (the next `up` checks on it again); `"rollback"` updates the agent back to the last ready spec (or deletes an agent whose create failed), then fails the step.',
    required: false,
    default: "keep",
    sentTo: "provider",
    change: "local",
    undeclared: "default",
    rules: ON_FAILURE_RULES,
  },
  {
    name: "healthCheck",
    type: "object",
    tsType: "{ failOnLogQuery: string; watchSeconds: number }",
    description:
      "Log health check: a provider setting, never sent. After a new deployment is ready, its logs are read for `watchSeconds` (1 to 3600); a line containing `failOnLogQuery` (non-empty; the logs query's case-insensitive match) fails the deployment, and `onFailure` applies.",
    required: false,
    sentTo: "provider",
    change: "local",
    undeclared: "clear",
    rules: HEALTH_CHECK_RULES,
    properties: [
      { name: "failOnLogQuery", type: "string", description: "Text whose appearance in the new deployment's logs fails it (non-empty)." },
      { name: "watchSeconds", type: "integer", description: "How long the logs are read after the deployment is ready, 1 to 3600 seconds." },
    ],
  },
  {
    name: "requiredSecrets",
    type: "array",
    tsType: "string[]",
    description:
      "Provider setting, never sent: field names `secretSet` must hold (each non-empty, no duplicates; needs `secretSet`). The preview reads the set (`GET /secrets/{name}`, once per set and run) and fails on a missing field, naming the fields the set has.",
    required: false,
    sentTo: "provider",
    change: "local",
    undeclared: "clear",
    rules: REQUIRED_SECRETS_RULES,
  },
  {
    name: "drainSeconds",
    type: "integer",
    tsType: "number",
    description:
      "Provider setting, never sent: how long a delete (destroy, replace, a rolled-back create) waits for the agent's live sessions to end, 0 to 14400 seconds; sessions still live then are cut, and a warning says how many.",
    required: false,
    default: 0,
    sentTo: "provider",
    change: "local",
    undeclared: "default",
    rules: DRAIN_SECONDS_RULES,
  },
  {
    name: "pinImageDigest",
    type: "boolean",
    tsType: "boolean",
    description:
      "Provider setting: whether a tag-form `image` is resolved at preview to the digest its tag names now (the registry's OCI distribution API) and sent as `name@sha256:…`, so that a tag pushed again is an update the preview shows (`imageDigest`). Left out, the stack's `agent-hosting:pinImageDigests` decides (default true). `false` sends the image as written and asks no registry; a digest-form image is always sent as written.",
    required: false,
    sentTo: "provider",
    change: "update",
    undeclared: "clear",
    rules: BOOLEAN_RULES,
  },
] as const);

export type AgentFieldName = (typeof AGENT_FIELDS)[number]["name"];

/** An entry of the Agent's field table. */
export type AgentField = (typeof AGENT_FIELDS)[number];

/** Fields of the create body (and, without serviceName, of the update body). */
export const SERVICE_FIELDS = AGENT_FIELDS.filter((f) => f.sentTo === "service");

export function agentField(name: string): AgentField | undefined {
  return AGENT_FIELDS.find((f) => f.name === name);
}

export const AGENT_OUTPUTS = outputTable([
  ...AGENT_ANSWER_MEMBERS,
  {
    name: "imageDigest",
    type: "string",
    tsType: "string",
    description:
      "The digest (`sha256:…`) the agent's tag-form image was pinned to: what its tag named at the preview of the last create or update, or what the service runs (`pulumi refresh`). Absent when the image is not pinned (`pinImageDigest` false, a digest-form image, or a stack deployed before pinning that no update has pinned yet).",
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

/** The schema's named object types of a deployment and its manifest are the service's (src/client/answer-tables.ts). */
export { SERVICE_OBJECT_TYPES };

/** The schema's `types` entries of these object types, each under `token(name)`. */
export function serviceObjectTypes(token: (name: string) => string): Record<string, unknown> {
  const member = (m: ServiceObjectMember) => {
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
