/**
 * The rule machinery the client's request bodies, every field table and
 * function argument use: a rule answers the reason a value breaks it, or
 * undefined when it passes, and a failure names the field it is about. The
 * service's own rules are the client's (src/client/service-names.ts,
 * src/client/agent-body.ts); each resource keeps the rules of its provider
 * settings in its folder (the Agent's: src/resources/agent/fields.ts).
 *
 * Plain functions, no schema library: `check` runs in every preview, so this
 * module loads nothing heavy.
 */

/** A failed rule: the dotted field path and what the rule requires. */
export interface RuleFailure {
  property: string;
  reason: string;
}

export type Rule = (value: unknown) => string | undefined;

/** A field's check from a rule on its whole value: the failure names the field. */
export function fieldRule(name: string, rule: Rule): (value: unknown) => RuleFailure[] {
  return (value) => {
    const reason = rule(value);
    return reason ? [{ property: name, reason }] : [];
  };
}

/** A name: a string of `min` to `max` characters matching `pattern` (`shape` says what that means). */
export function nameRule(min: number, max: number, pattern: RegExp, shape: string): Rule {
  return (value) => {
    if (typeof value !== "string") return "must be a string";
    if (value.length < min || value.length > max) return `must be ${min} to ${max} characters`;
    return pattern.test(value) ? undefined : shape;
  };
}

export const booleanProblem: Rule = (value) => (typeof value === "boolean" ? undefined : "must be a boolean");

/** An integer ≥ `min`; `rule` is the reason when it is smaller. */
export function integerProblem(value: unknown, min: number, rule: string): string | undefined {
  if (typeof value !== "number" || !Number.isInteger(value)) return "must be an integer";
  return value >= min ? undefined : rule;
}

/**
 * An object field with the named members only: its record, or undefined and
 * the failure when the value is no object; a failure for each other key. The
 * caller checks each member's value.
 */
export function objectMembers(
  field: string,
  value: unknown,
  members: readonly string[],
): { record: Record<string, unknown> | undefined; failures: RuleFailure[] } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { record: undefined, failures: [{ property: field, reason: `must be an object { ${members.join(", ")} }` }] };
  }
  const record = value as Record<string, unknown>;
  const failures = Object.keys(record)
    .filter((key) => !members.includes(key))
    .map((key) => ({ property: field, reason: `unknown key "${key}": only ${members.join(" and ")}` }));
  return { record, failures };
}
