/** The Agent's part of the package schema, from its field tables. */
import type { Json } from "../../core/resource-entry";
import { capitalized, property, type SchemaField } from "../../core/schema-parts";
import { AGENT_FIELDS } from "./fields";
import { AGENT_OUTPUTS } from "./outputs-table";

export function agentSchema(types: Json): Json {
  const inputProperties: Json = {};
  const inputs: readonly SchemaField[] = AGENT_FIELDS;
  const outputs: readonly (SchemaField & { reliedOn: boolean })[] = AGENT_OUTPUTS;
  for (const field of inputs) inputProperties[field.name] = property(field, `Agent${capitalized(field.name)}`, types);
  const properties: Record<string, Json> = {};
  for (const field of inputs) properties[field.name] = property(field, `Agent${capitalized(field.name)}`, types);
  // An output of the same name as an input (autoScaling) is the service's report of it, with its own shape.
  for (const field of outputs) properties[field.name] = property(field, `Agent${capitalized(field.name)}Status`, types);
  for (const spec of Object.values(properties)) delete spec["default"];
  const alwaysSet = [
    ...inputs.filter((f) => f.required || f.default !== undefined).map((f) => f.name),
    ...outputs.filter((f) => f.reliedOn).map((f) => f.name),
  ];
  return {
    description:
      "An agent of the Agent Hosting Service: a container image run on the service's nodes, scaled between limits. " +
      "Import an existing one with `pulumi import agent-hosting:index:Agent <name> <serviceName>`.",
    inputProperties,
    requiredInputs: inputs.filter((f) => f.required).map((f) => f.name),
    properties,
    required: [...new Set(alwaysSet)],
  };
}
