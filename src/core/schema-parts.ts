/**
 * The pieces of the Pulumi package schema that every resource and function
 * entry builds its part from: type tokens, property specs from field tables,
 * and named object types.
 */
import type { FunctionField, Json } from "./resource-entry";

export const PACKAGE_NAME = "agent-hosting";

/** What the schema reads of a field of a table (an input or an output). */
export interface SchemaField {
  name: string;
  /** "array": a list of strings. */
  type: "string" | "boolean" | "integer" | "number" | "object" | "array";
  description: string;
  required?: boolean;
  default?: string | boolean | number;
  properties?: readonly { name: string; type: "integer" | "string"; description: string }[];
}

export const token = (name: string): string => `${PACKAGE_NAME}:index:${name}`;
export const ref = (name: string): Json => ({ $ref: `#/types/${token(name)}` });
export const capitalized = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** An object with no declared members: a map of any values. */
const OPEN_OBJECT = { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } };

/**
 * Builds a schema property; nested object members become a named type in
 * `types`, and an object field named in `namedTypes` refers to that type.
 * A default is said at the end of the description.
 */
export function property(field: SchemaField, typeName: string, types: Json, namedTypes: Readonly<Record<string, string>> = {}): Json {
  const defaultText = field.default === undefined ? "" : ` Defaults to \`${JSON.stringify(field.default)}\`.`;
  const spec: Json = { description: `${field.description}${defaultText}` };
  const named = namedTypes[field.name];
  if (field.type === "object" && named) {
    Object.assign(spec, ref(named));
  } else if (field.type === "object" && field.properties) {
    types[token(typeName)] = {
      type: "object",
      description: field.description,
      properties: Object.fromEntries(field.properties.map((p) => [p.name, { type: p.type, description: p.description }])),
      required: field.properties.map((p) => p.name),
    };
    Object.assign(spec, ref(typeName));
  } else if (field.type === "object") {
    Object.assign(spec, OPEN_OBJECT);
  } else if (field.type === "array") {
    Object.assign(spec, { type: "array", items: { type: "string" } });
  } else {
    spec["type"] = field.type;
  }
  if (field.default !== undefined) spec["default"] = field.default;
  return spec;
}

export function functionProperty(field: FunctionField, types: Json): Json {
  const spec: Json = { description: field.description };
  const objectType = (t: { typeName: string; properties: readonly FunctionField[] }) => {
    types[token(t.typeName)] = {
      type: "object",
      description: field.description,
      properties: Object.fromEntries(t.properties.map((p) => [p.name, functionProperty(p, types)])),
      required: t.properties.filter((p) => p.required).map((p) => p.name),
    };
    return ref(t.typeName);
  };
  if (field.type === "array") {
    spec["type"] = "array";
    spec["items"] = field.items === "string" || field.items === undefined ? { type: "string" } : objectType(field.items);
  } else if (field.type === "object" && field.object) {
    Object.assign(spec, objectType(field.object));
  } else {
    spec["type"] = field.type;
  }
  return spec;
}
