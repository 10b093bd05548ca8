/** Checking a record of fields (a request body, a resource's inputs) against their table: every failure at once, in field order. */
import { ruleFailures } from "./field-rules";
import type { FieldRules, RuleFailure } from "./field-rules";

/** What checking needs of a field: a field table's entry (src/core/field-table.ts) is one. */
export interface CheckedField {
  name: string;
  required: boolean;
  /** Its rules, as data: a declared, known value must pass them; nested values that are unknown pass. */
  rules: FieldRules;
}

export interface ValidateOptions {
  /** The resource the fields belong to (`Agent`), named when the value is no record at all. */
  resource: string;
  /** The fields accepted at all; any other key is "not a known field". */
  fields: readonly CheckedField[];
  /** Fields that must be present (default: those the table marks required, among `fields`). */
  required?: readonly string[];
  /** Values not known yet (a preview's unknowns): they pass every rule. */
  isUnknown?: (value: unknown) => boolean;
  /** Keys skipped entirely (for example the dynamic provider's `__provider`). */
  ignoreKey?: (key: string) => boolean;
}

/** Each table's fields by name, and the names it marks required, made once per table (check runs for every resource of a preview). */
const indexes = new WeakMap<readonly CheckedField[], { byName: Map<string, CheckedField>; required: readonly string[] }>();

function indexOf(fields: readonly CheckedField[]): { byName: Map<string, CheckedField>; required: readonly string[] } {
  let index = indexes.get(fields);
  if (index === undefined) {
    index = { byName: new Map(fields.map((f) => [f.name, f])), required: fields.filter((f) => f.required).map((f) => f.name) };
    indexes.set(fields, index);
  }
  return index;
}

const isAbsent = (value: unknown) => value === undefined || value === null;
const isEmptyList = (value: unknown) => Array.isArray(value) && value.length === 0;

export function validateFields(input: unknown, options: ValidateOptions): RuleFailure[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return [{ property: "", reason: `must be an object of ${options.resource} fields` }];
  }
  const record = input as Record<string, unknown>;
  const isUnknown = options.isUnknown ?? (() => false);
  const { byName, required: tableRequired } = indexOf(options.fields);
  const required = options.required ?? tableRequired;
  const failures: RuleFailure[] = [];
  for (const name of required) {
    if (record[name] === undefined || record[name] === null) failures.push({ property: name, reason: "is required" });
  }
  for (const [key, value] of Object.entries(record)) {
    if (options.ignoreKey?.(key) || value === undefined) continue;
    const field = byName.get(key);
    if (!field) {
      failures.push({ property: key, reason: "is not a known field" });
      continue;
    }
    if (value === null || isUnknown(value)) continue;
    failures.push(...ruleFailures(key, field.rules, value, isUnknown));
  }
  for (const field of options.fields) {
    const needs = field.rules.needs;
    if (needs === undefined || isAbsent(record[field.name]) || isEmptyList(record[field.name]) || !isAbsent(record[needs.field])) continue;
    failures.push({ property: field.name, reason: needs.reason });
  }
  return failures;
}
