/** The shape of one entry of a resource's field table (each resource's folder under src/resources/ has one). */
import type { ManifestMapping } from "../client/agent-body";
import type { FieldRules } from "../client/field-rules";
import type { AgentAnswerMember } from "../client/answer-tables";

/** A service's answer, read defensively. */
type Answer = Record<string, unknown>;

/** What a field left out of the program means. */
export type Undeclared =
  /** The field must be declared. */
  | "required"
  /** The default is used (and sent, for a service field). */
  | "default"
  /** The resource keeps what it has at the service: an update sends the live value. */
  | "keep"
  /** Left out of the request, which clears it at the service; the preview shows the removal. */
  | "clear";

/** How a request field appears in the manifest's \`spec\` (the service's reading: src/client/agent-body.ts). */
export type { ManifestMapping };

export interface NestedField {
  name: string;
  type: "integer" | "string";
  description: string;
  /** Its name in the service's answers (for a member the service reports). */
  answerName?: string;
}

export interface FieldSpec {
  name: string;
  /** Pulumi schema type ("array": a list of strings). */
  type: "string" | "boolean" | "integer" | "number" | "object" | "array";
  /** The TypeScript type of a resolved value (used by the generated types). */
  tsType: string;
  /** Shown in IDEs, the README and the package schema. */
  description: string;
  required: boolean;
  default?: string | boolean | number;
  /** "service": part of the create and update bodies; "provider": a provider setting, never sent. */
  sentTo: "service" | "provider";
  /**
   * What a change of the field does: "replace" deletes the resource and creates
   * another, "update" posts the update body, "local" sends nothing (the new
   * value is only recorded in the state).
   */
  change: "replace" | "update" | "local";
  undeclared: Undeclared;
  /** Its rules, as data (src/client/field-rules.ts): the provider's check and the SDKs' mocks apply them. */
  rules: FieldRules;
  /** Where the value is found in the manifest the service reports for the resource. */
  manifest?: ManifestMapping;
  /** Members of an object field, with their names in the service's answers. */
  properties?: readonly NestedField[];
  /**
   * For a field the service reports at the top of its answer in a shape of
   * its own: the output of the same name is that live value (not the
   * declared input), and the input is read back from it on refresh.
   */
  answer?: {
    output(answer: Answer): unknown;
    input(answer: Answer): unknown;
  };
  /** False for an "update" field whose change alone keeps the active deployment (the service rescales in place). */
  newDeployment?: false;
}

/**
 * An output beyond the inputs, shaped as a member of the service's answer
 * (src/client/answer-tables.ts), where a resource's outputs come from.
 */
export type OutputFieldSpec = AgentAnswerMember;

/**
 * A resource's field table as its folder declares it: each entry keeps its
 * literal types (its name, where it is sent, whether it is required), from
 * which types such as the request bodies derive, and each is a FieldSpec,
 * which generic code reads without widening the table.
 */
export type FieldTable<T extends readonly FieldSpec[]> = readonly (T[number] & FieldSpec)[];

/**
 * The table of `fields`, typed as a FieldTable: `fieldTable([...] as const)`
 * (not a `const` type parameter, which a published declaration would carry
 * and TypeScript before 5.0 cannot read).
 */
export function fieldTable<T extends readonly FieldSpec[]>(fields: T): FieldTable<T> {
  return fields;
}

/** A resource's outputs table, typed like its field table (OutputFieldSpec entries with their literal types kept). */
export type OutputTable<T extends readonly OutputFieldSpec[]> = readonly (T[number] & OutputFieldSpec)[];

export function outputTable<T extends readonly OutputFieldSpec[]>(outputs: T): OutputTable<T> {
  return outputs;
}
