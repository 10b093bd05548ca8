/**
 * The Agent's inputs, once: their types, rules, defaults, whether the service
 * receives them, whether a change replaces the agent, what leaving one out
 * means, and where the service reports each one in the manifest.
 *
 * Everything else derives from this table: the checks of `check`, the diff,
 * the create and update bodies, the inputs rebuilt on refresh, the outputs,
 * the generated TypeScript types, the README's reference and the package
 * schema.
 */
import { fieldTable } from "../../core/field-table";
import { booleanProblem, fieldRule } from "../../core/field-rules";
import { AGENT_BODY, scalingFromReplicas } from "../../client/agent-body";
import { drainSecondsProblem, healthCheckFailures, onFailureProblem, readyTimeoutProblem, redeployTriggerProblem, requiredSecretsFailures } from "./rules";

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
    check: AGENT_BODY[name].check,
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
    check: AGENT_BODY.serviceName.check,
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
    check: AGENT_BODY.image.check,
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
    check: AGENT_BODY.nodeType.check,
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
    check: AGENT_BODY.autoScaling.check,
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
    check: AGENT_BODY.enableNoise.check,
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
    check: fieldRule("waitForReady", booleanProblem),
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
    check: fieldRule("readyTimeoutSeconds", readyTimeoutProblem),
  },
  {
    name: "redeployTrigger",
    type: "string",
    tsType: "string",
    description:
      "Provider setting, never sent: any string; changing it makes a new deployment of the same spec (an update in place). Use it to roll out a new push to a mutable tag such as `:latest`.",
    required: false,
    sentTo: "provider",
    change: "update",
    undeclared: "clear",
    check: fieldRule("redeployTrigger", redeployTriggerProblem),
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
    check: fieldRule("onFailure", onFailureProblem),
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
    check: (value, isUnknown) => healthCheckFailures(value, isUnknown),
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
    check: (value, isUnknown) => requiredSecretsFailures(value, isUnknown),
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
    check: fieldRule("drainSeconds", drainSecondsProblem),
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
