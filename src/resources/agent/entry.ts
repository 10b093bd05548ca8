/** The Agent's registration: its type tokens, field tables, schema part (from its field tables) and verbs. */
import { loadOnce } from "../../client/load-once";
import { UNKNOWN_VALUE } from "../../core/engine-sentinels";
import { defineResource } from "../../core/resource-entry";
import type { Json, ResourceVerbs } from "../../core/resource-entry";
import { examplesSection } from "../../core/schema-docs";
import type { SchemaExample } from "../../core/schema-docs";
import { capitalized, property, token } from "../../core/schema-parts";
import { checkVerb, diffVerb } from "./preview-verbs";
import { AGENT_FIELDS, AGENT_OUTPUTS, serviceObjectTypes, TYPED_OUTPUTS } from "./fields";
import { asInputs, asState, outputProps } from "./state";
import type { AgentInputs } from "./inputs-outputs";
import type { AgentState } from "./state";
import { DYNAMIC_AGENT_TYPE, NATIVE_AGENT_TYPE } from "./type-tokens";

/** The Agent's example programs, under schema-docs/examples/. */
const AGENT_EXAMPLES: readonly SchemaExample[] = [
  { dir: "agent", title: "A voice agent with noise cancellation, scaled between one and three agents" },
];

/** How an agent that exists at the service is adopted: the plugin reads it by its service name, the ID. */
const IMPORT_SECTION = [
  "## Import",
  "",
  "An agent that exists at the service is adopted by its service name, which is the resource's ID; " +
    "the inputs are read back from what the service reports:",
  "",
  "```sh",
  "$ pulumi import agent-hosting:index:Agent <name> <serviceName>",
  "```",
  "",
  "For example, `pulumi import agent-hosting:index:Agent bot voice-bot`. " +
    "The `import` resource option does the same from a program.",
].join("\n");

function agentSchema(types: Json): Json {
  Object.assign(types, serviceObjectTypes(token));
  const inputProperties: Json = {};
  for (const field of AGENT_FIELDS) inputProperties[field.name] = property(field, `Agent${capitalized(field.name)}`, types);
  const properties: Record<string, Json> = {};
  for (const field of AGENT_FIELDS) properties[field.name] = property(field, `Agent${capitalized(field.name)}`, types);
  // An output of the same name as an input (autoScaling) is the service's report of it, with its own shape.
  for (const field of AGENT_OUTPUTS) properties[field.name] = property(field, `Agent${capitalized(field.name)}Status`, types, TYPED_OUTPUTS);
  for (const spec of Object.values(properties)) delete spec["default"];
  const alwaysSet = [
    ...AGENT_FIELDS.filter((f) => f.required || f.default !== undefined).map((f) => f.name),
    ...AGENT_OUTPUTS.filter((f) => f.reliedOn).map((f) => f.name),
  ];
  return {
    description: [
      "An agent of the Agent Hosting Service: a container image run on the service's nodes, scaled between limits. " +
        "A create waits until the agent and its deployment are ready (`waitForReady`, `readyTimeoutSeconds`).",
      examplesSection(AGENT_EXAMPLES),
      IMPORT_SECTION,
    ].join("\n\n"),
    inputProperties,
    requiredInputs: AGENT_FIELDS.filter((f) => f.required).map((f) => f.name),
    properties,
    required: [...new Set(alwaysSet)],
  };
}

/**
 * The verbs that talk to the service, each loaded at its first call: a
 * preview's check and diff need none of them, nor the readiness wait, the
 * health check and the rollback they load (a provider process starts for
 * every operation, and loads these in each one that creates, reads, updates
 * or deletes), once each (client/load-once.ts).
 */
const loadRollout = loadOnce(() => import("./rollout"));
const loadRead = loadOnce(() => import("./read"));
const SERVICE_VERBS: Omit<ResourceVerbs<AgentInputs, AgentState>, "check" | "diff"> = {
  create: async (request) => (await loadRollout()).createVerb(request),
  read: async (request) => (await loadRead()).readVerb(request),
  update: async (request) => (await loadRollout()).updateVerb(request),
  delete: async (request) => (await loadRead()).deleteVerb(request),
};

export const AGENT = defineResource({
  name: "Agent",
  nativeType: NATIVE_AGENT_TYPE,
  dynamicType: DYNAMIC_AGENT_TYPE,
  fields: AGENT_FIELDS,
  outputs: AGENT_OUTPUTS,
  schema: agentSchema,
  examples: AGENT_EXAMPLES,
  decodeInputs: asInputs,
  decodeOutputs: asState,
  encodeOutputs: (outputs, marks) => outputProps(outputs, marks.secretInputs),
  // Previewing a create, the agent does not exist yet: its name is unknown like its ID, so a function
  // that reads it (Pulumi YAML's fn::invoke with ${bot.name}) waits for the update, as output invokes do.
  previewCreate: (inputs) => ({ ...inputs, name: UNKNOWN_VALUE }),
  verbs: { check: checkVerb, diff: diffVerb, ...SERVICE_VERBS },
});
