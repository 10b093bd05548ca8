/** The Agent's part of the package schema, from its field tables. */
import type { Json } from "../../core/resource-entry";
import { examplesSection, type SchemaExample } from "../../core/schema-docs";
import { capitalized, property, token, type SchemaField } from "../../core/schema-parts";
import { serviceObjectTypes, TYPED_OUTPUTS } from "./service-object-types";
import { AGENT_FIELDS } from "./fields";
import { AGENT_OUTPUTS } from "./outputs-table";

/** The Agent's example programs, under schema-docs/examples/. */
export const AGENT_EXAMPLES: readonly SchemaExample[] = [
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

export function agentSchema(types: Json): Json {
  Object.assign(types, serviceObjectTypes(token));
  const inputProperties: Json = {};
  const inputs: readonly SchemaField[] = AGENT_FIELDS;
  const outputs: readonly (SchemaField & { reliedOn: boolean })[] = AGENT_OUTPUTS;
  for (const field of inputs) inputProperties[field.name] = property(field, `Agent${capitalized(field.name)}`, types);
  const properties: Record<string, Json> = {};
  for (const field of inputs) properties[field.name] = property(field, `Agent${capitalized(field.name)}`, types);
  // An output of the same name as an input (autoScaling) is the service's report of it, with its own shape.
  for (const field of outputs) properties[field.name] = property(field, `Agent${capitalized(field.name)}Status`, types, TYPED_OUTPUTS);
  for (const spec of Object.values(properties)) delete spec["default"];
  const alwaysSet = [
    ...inputs.filter((f) => f.required || f.default !== undefined).map((f) => f.name),
    ...outputs.filter((f) => f.reliedOn).map((f) => f.name),
  ];
  return {
    description: [
      "An agent of the Agent Hosting Service: a container image run on the service's nodes, scaled between limits. " +
        "A create waits until the agent and its deployment are ready (`waitForReady`, `readyTimeoutSeconds`).",
      examplesSection(AGENT_EXAMPLES),
      IMPORT_SECTION,
    ].join("\n\n"),
    inputProperties,
    requiredInputs: inputs.filter((f) => f.required).map((f) => f.name),
    properties,
    required: [...new Set(alwaysSet)],
  };
}
