/**
 * The rule machinery the client's request bodies, every field table and
 * function argument use. A field's rules are data (FieldRules): tests of its
 * value, an object's members and the relations between them, a list's items,
 * another field it needs. This module applies them; the SDKs' mocks apply
 * the same data (scripts/lib/mock-model.mjs hands it to them), so a rule and
 * its reason are written once. A failure names the field it is about. The
 * service's own rules are the client's (src/client/service-names.ts,
 * src/client/agent-body.ts); each resource keeps the rules of its provider
 * settings in its folder (the Agent's: src/resources/agent/fields.ts).
 *
 * Plain functions, no schema library: `check` runs in every preview, so this
 * module loads nothing heavy. Patterns are regular expressions in the syntax
 * JavaScript, Python, Go and Java share (no lookaround, no backreferences);
 * `$` is the end of the text.
 */

/** A failed rule: the dotted field path and what the rule requires. */
export interface RuleFailure {
  property: string;
  reason: string;
}

/** A rule on a whole value: the reason it breaks the rule, or undefined when it passes. */
export type Rule = (value: unknown) => string | undefined;

/**
 * One test of a value; `reason` is what the value fails when it does not
 * pass. `is`: the kind of value ("integer": a whole number). `length`: a
 * string's length in UTF-16 code units (JavaScript's). `matches`: a string
 * in which the pattern is found, tested only when `when` is found in it and
 * `unless` is not. `lacks`: a string in which the pattern is not found.
 * `range`: a number within the bounds, both included. `oneOf`: one of the
 * values.
 */
export type ValueTest =
  | { readonly is: "string" | "boolean" | "number" | "integer"; readonly reason: string }
  | { readonly length: { readonly min?: number; readonly max?: number }; readonly reason: string }
  | { readonly matches: string; readonly when?: string; readonly unless?: string; readonly reason: string }
  | { readonly lacks: string; readonly reason: string }
  | { readonly range: { readonly min?: number; readonly max?: number }; readonly reason: string }
  | { readonly oneOf: readonly string[]; readonly reason: string };

/** An object's member: its tests (a missing member fails with the object's `missing`). */
export interface MemberRules {
  readonly name: string;
  readonly tests: readonly ValueTest[];
}

/** `member` ≤ `atMost` (both members known and passing their tests); the failure names `member`. */
export interface MemberRelation {
  readonly member: string;
  readonly atMost: string;
  readonly reason: string;
}

export interface ObjectRules {
  readonly members: readonly MemberRules[];
  readonly relations: readonly MemberRelation[];
  /** The reason for a value that is no object. */
  readonly notObject: string;
  /** The reason for a key that names no member: `{key}` stands for the key. */
  readonly unknownKey: string;
  /** The reason for a member left out. */
  readonly missing: string;
}

export interface ListRules {
  /** The reason for a value that is no list. */
  readonly notList: string;
  /** Each item's tests; the failure names `field[index]`. */
  readonly items: readonly ValueTest[];
  /** The reason for an item equal to an earlier one: `{item}` stands for the item. */
  readonly duplicate: string;
}

/** A field's rules, as data. */
export interface FieldRules {
  /** Tests of the value in order: the first it fails is the field's failure. */
  readonly tests?: readonly ValueTest[];
  readonly object?: ObjectRules;
  readonly list?: ListRules;
  /** Another field this one needs when it is declared (an empty list counts as not declared): the failure names this one. */
  readonly needs?: { readonly field: string; readonly reason: string };
}

export const BOOLEAN_RULES: FieldRules = { tests: [{ is: "boolean", reason: "must be a boolean" }] };

/** A string's tests: a string, then `tests`. */
export function stringTests(...tests: readonly ValueTest[]): readonly ValueTest[] {
  return [{ is: "string", reason: "must be a string" }, ...tests];
}

/** A name: a string of `min` to `max` characters matching `pattern` (`shape` says what that means). */
export function nameTests(min: number, max: number, pattern: string, shape: string): readonly ValueTest[] {
  return stringTests({ length: { min, max }, reason: `must be ${min} to ${max} characters` }, { matches: pattern, reason: shape });
}

/** An integer from `min` (to `max`); `reason` is the failure when it is out of range, `notInteger` when it is no integer. */
export function integerTests(reason: string, range: { min?: number; max?: number }, notInteger = "must be an integer"): readonly ValueTest[] {
  return [{ is: "integer", reason: notInteger }, { range, reason }];
}

/** An object field of the named members only, the reasons worded from its members' names. */
export function objectRules(members: readonly MemberRules[], relations: readonly MemberRelation[] = []): FieldRules {
  const names = members.map((m) => m.name);
  return {
    object: {
      members,
      relations,
      notObject: `must be an object { ${names.join(", ")} }`,
      unknownKey: `unknown key "{key}": only ${names.join(" and ")}`,
      missing: "is required",
    },
  };
}

/** JavaScript's whitespace (`\s`) as a character class the four languages read alike. */
export const WHITESPACE = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]";

/** Text beyond whitespace: a pattern found in any string that is not blank. */
export const NOT_BLANK = WHITESPACE.replace("[", "[^");

const compiled = new Map<string, RegExp>();

function found(pattern: string, text: string): boolean {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(pattern);
    compiled.set(pattern, regex);
  }
  return regex.test(text);
}

function passes(test: ValueTest, value: unknown): boolean {
  if ("is" in test) {
    if (test.is === "integer") return Number.isInteger(value);
    if (test.is === "number") return typeof value === "number" && !Number.isNaN(value);
    return typeof value === test.is;
  }
  if ("oneOf" in test) return test.oneOf.some((allowed) => allowed === value);
  if ("range" in test) {
    return typeof value === "number" && (test.range.min === undefined || value >= test.range.min) && (test.range.max === undefined || value <= test.range.max);
  }
  if (typeof value !== "string") return false;
  if ("length" in test) return (test.length.min === undefined || value.length >= test.length.min) && (test.length.max === undefined || value.length <= test.length.max);
  if ("lacks" in test) return !found(test.lacks, value);
  if (test.when !== undefined && !found(test.when, value)) return true;
  if (test.unless !== undefined && found(test.unless, value)) return true;
  return found(test.matches, value);
}

/** The reason of the first test `value` fails, or undefined when it passes them all. */
export function firstFailure(tests: readonly ValueTest[], value: unknown): string | undefined {
  return tests.find((test) => !passes(test, value))?.reason;
}

/** A rule from tests, for a value checked outside a field table (a path's name, a function's argument). */
export function ruleOf(tests: readonly ValueTest[]): Rule {
  return (value) => firstFailure(tests, value);
}

function objectFailures(field: string, rules: ObjectRules, value: unknown, isUnknown: (v: unknown) => boolean): RuleFailure[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [{ property: field, reason: rules.notObject }];
  const record = value as Record<string, unknown>;
  const names = rules.members.map((m) => m.name);
  const failures = Object.keys(record)
    .filter((key) => !names.includes(key))
    .map((key) => ({ property: field, reason: rules.unknownKey.replace("{key}", key) }));
  const failed = new Set<string>();
  for (const member of rules.members) {
    const given = record[member.name];
    if (isUnknown(given)) continue;
    const reason = given === undefined ? rules.missing : firstFailure(member.tests, given);
    if (reason === undefined) continue;
    failed.add(member.name);
    failures.push({ property: `${field}.${member.name}`, reason });
  }
  for (const relation of rules.relations) {
    const [low, high] = [record[relation.member], record[relation.atMost]];
    if (failed.has(relation.member) || failed.has(relation.atMost) || isUnknown(low) || isUnknown(high)) continue;
    if ((low as number) > (high as number)) failures.push({ property: `${field}.${relation.member}`, reason: relation.reason });
  }
  return failures;
}

function listFailures(field: string, rules: ListRules, value: unknown, isUnknown: (v: unknown) => boolean): RuleFailure[] {
  if (!Array.isArray(value)) return [{ property: field, reason: rules.notList }];
  const failures: RuleFailure[] = [];
  const seen = new Set<unknown>();
  value.forEach((item: unknown, index) => {
    if (isUnknown(item)) return;
    const property = `${field}[${index}]`;
    const reason = firstFailure(rules.items, item);
    if (reason !== undefined) failures.push({ property, reason });
    else if (seen.has(item)) failures.push({ property, reason: rules.duplicate.replace("{item}", String(item)) });
    else seen.add(item);
  });
  return failures;
}

/** The failures of a declared, known value of the field `name`; nested values that are unknown pass. */
export function ruleFailures(name: string, rules: FieldRules, value: unknown, isUnknown: (v: unknown) => boolean): RuleFailure[] {
  const reason = rules.tests === undefined ? undefined : firstFailure(rules.tests, value);
  if (reason !== undefined) return [{ property: name, reason }];
  return [
    ...(rules.object === undefined ? [] : objectFailures(name, rules.object, value, isUnknown)),
    ...(rules.list === undefined ? [] : listFailures(name, rules.list, value, isUnknown)),
  ];
}
