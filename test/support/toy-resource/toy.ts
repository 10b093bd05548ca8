/**
 * A second resource and a function, defined outside src/ the way a folder
 * under src/resources/ defines the Agent: a field table, typed verbs, a
 * schema part. The Toy keeps its state in memory (a service of its own).
 */
import { integerTests } from "../../../src/client/field-rules";
import type { FieldSpec, OutputFieldSpec } from "../../../src/core/field-table";
import { defineResource, type FunctionEntry, type Props } from "../../../src/core/resource-entry";
import { property, token } from "../../../src/core/schema-parts";
import { isReservedKey } from "../../../src/core/state-marks";
import { validateFields } from "../../../src/client/validate-fields";

interface ToyInputs {
  label: string;
  size: number;
}

export const TOY_FIELDS: readonly FieldSpec[] = [
  {
    name: "label", type: "string", tsType: "string", description: "The toy's label; changing it replaces the toy.", required: true,
    sentTo: "service", change: "replace", undeclared: "required",
    rules: { tests: [{ is: "string", reason: "must be a non-empty string" }, { length: { min: 1 }, reason: "must be a non-empty string" }] },
  },
  {
    name: "size", type: "integer", tsType: "number", description: "How big, ≥ 1.", required: false, default: 1,
    sentTo: "service", change: "update", undeclared: "default", rules: { tests: integerTests("must be an integer ≥ 1", { min: 1 }) },
  },
];

const TOY_OUTPUTS: readonly OutputFieldSpec[] = [{ name: "serial", type: "integer", tsType: "number", description: "Its number at the toy service.", reliedOn: true }];

/** The toy service: what exists, by id. */
export const toyStore = new Map<string, ToyInputs & { serial: number }>();
let serials = 0;

function decodeToy(props: Props): ToyInputs {
  return { label: String(props["label"]), size: typeof props["size"] === "number" ? props["size"] : 1 };
}

export const TOY = defineResource<ToyInputs>({
  name: "Toy",
  nativeType: token("Toy"),
  fields: TOY_FIELDS,
  outputs: TOY_OUTPUTS,
  schema: (types) => {
    const inputProperties = Object.fromEntries(TOY_FIELDS.map((f) => [f.name, property(f, `Toy${f.name}`, types)]));
    const outputs = Object.fromEntries(TOY_OUTPUTS.map((f) => [f.name, property(f, `Toy${f.name}`, types)]));
    return { description: "A toy.", inputProperties, requiredInputs: ["label"], properties: { ...inputProperties, ...outputs }, required: ["label", "size", "serial"] };
  },
  decodeInputs: decodeToy,
  verbs: {
    check: ({ news }) => ({ inputs: { size: 1, ...news }, failures: validateFields(news, { resource: "Toy", fields: TOY_FIELDS, ignoreKey: isReservedKey }) }),
    diff: async ({ olds, news }) => {
      const changed = TOY_FIELDS.filter((f) => JSON.stringify(olds[f.name] ?? f.default) !== JSON.stringify(news[f.name] ?? f.default)).map((f) => f.name);
      const replaces = changed.filter((name) => name === "label");
      return { changes: changed.length > 0, replaces, changed, stables: [], localOnly: false, deleteBeforeReplace: false };
    },
    create: async ({ inputs, marks }) => {
      const toy = { ...inputs, serial: ++serials };
      toyStore.set(`toy-${inputs.label}`, toy);
      return { id: `toy-${inputs.label}`, outputs: { ...toy }, marks };
    },
    read: async ({ id, marks }) => {
      const toy = toyStore.get(id);
      return toy && { id, outputs: { ...toy }, inputs: { label: toy.label, size: toy.size }, marks };
    },
    update: async ({ id, inputs, marks }) => {
      const toy = { ...inputs, serial: toyStore.get(id)?.serial ?? ++serials };
      toyStore.set(id, toy);
      return { id, outputs: { ...toy }, marks };
    },
    delete: async ({ id }) => {
      toyStore.delete(id);
    },
  },
});

export const SHOUT: FunctionEntry = {
  name: "shout",
  token: token("shout"),
  description: "The text in capitals.",
  args: [{ name: "text", type: "string", required: true, description: "What to shout." }],
  result: [{ name: "text", type: "string", required: true, description: "The text in capitals." }],
  handler: async (args) =>
    typeof args["text"] === "string" ? { result: { text: args["text"].toUpperCase() }, failures: [] } : { failures: [{ property: "text", reason: "must be a string" }] },
};
