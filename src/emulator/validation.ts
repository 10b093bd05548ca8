/**
 * The emulator's own checks of request bodies and names, written from the
 * service's API and nothing else:
 *
 * - the body is a JSON object;
 * - serviceName: required; starts and ends with a lowercase letter or a
 *   digit, may contain hyphens, nothing else;
 * - image: required; a container image reference;
 * - nodeType: only "arm";
 * - secretSet, imagePullSecretSet: names of secret sets, 3 to 63 characters;
 * - autoScaling: an object of two integers, minAgents and maxAgents;
 * - enableNoise: a boolean.
 *
 * Where the API leaves it open the emulator chooses as a plausible service
 * would, and says so in its answer:
 * - serviceName is 1 to 54 characters, the same bound the provider checks
 *   (a DNS label of 63 leaves room for the suffixes a deployment adds);
 * - image follows the container reference grammar: `[host[:port]/]path[:tag][@algo:hex]`,
 *   lowercase path components, no whitespace; a tag is not required;
 * - autoScaling needs both members, minAgents ≥ 0, maxAgents ≥ 1, minAgents ≤ maxAgents;
 * - a field the API does not define is refused (400 naming it), so a
 *   client that sends a typo or a setting of its own is caught;
 * - `null` on an optional field means "none" (on an update that merges, it
 *   clears the field); on a required field it counts as missing.
 */
import type { CreateBody, UpdateBody, Violation } from "./wire";

const SERVICE_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const MAX_SERVICE_NAME = 54;
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?)`;
const PATH_COMPONENT = "(?:[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)";
const IMAGE_REFERENCE = new RegExp(
  `^(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*` +
    "(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?" +
    "(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$",
);

export const SECRET_SET_NAME_LENGTH = { min: 3, max: 63 };

/** The fields of a create body; an update takes the same minus serviceName. */
const CREATE_FIELDS = ["serviceName", "image", "nodeType", "imagePullSecretSet", "secretSet", "autoScaling", "enableNoise"] as const;

type FieldRule = (value: unknown, property: string) => Violation[];

const one = (property: string, reason: string): Violation[] => [{ property, reason }];

function serviceNameViolations(value: unknown, property: string): Violation[] {
  if (typeof value !== "string") return one(property, "must be a string");
  if (value.length > MAX_SERVICE_NAME) return one(property, `must be at most ${MAX_SERVICE_NAME} characters`);
  if (!SERVICE_NAME.test(value)) {
    return one(property, "must start and end with a lowercase letter or a digit and contain only those and hyphens");
  }
  return [];
}

function imageViolations(value: unknown, property: string): Violation[] {
  if (typeof value !== "string") return one(property, "must be a string");
  if (value === "") return one(property, "must not be empty");
  if (!IMAGE_REFERENCE.test(value)) return one(property, "must be a container image reference, [host[:port]/]path[:tag][@algorithm:hex]");
  return [];
}

function nodeTypeViolations(value: unknown, property: string): Violation[] {
  return value === "arm" ? [] : one(property, 'only "arm" is supported');
}

/** A secret set's name: 3 to 63 characters. */
export function secretSetNameViolations(value: unknown, property: string): Violation[] {
  if (typeof value !== "string") return one(property, "must be a string");
  const { min, max } = SECRET_SET_NAME_LENGTH;
  return value.length >= min && value.length <= max ? [] : one(property, `must be ${min} to ${max} characters`);
}

function booleanViolations(value: unknown, property: string): Violation[] {
  return typeof value === "boolean" ? [] : one(property, "must be a boolean");
}

function autoScalingViolations(value: unknown, property: string): Violation[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return one(property, "must be an object { minAgents, maxAgents }");
  }
  const record = value as Record<string, unknown>;
  const violations: Violation[] = [];
  for (const key of Object.keys(record)) {
    if (key !== "minAgents" && key !== "maxAgents") violations.push({ property, reason: `has no member "${key}": only minAgents and maxAgents` });
  }
  const bounds = { minAgents: 0, maxAgents: 1 } as const;
  for (const key of ["minAgents", "maxAgents"] as const) {
    const member = record[key];
    if (member === undefined || member === null) violations.push({ property: `${property}.${key}`, reason: "is required" });
    else if (typeof member !== "number" || !Number.isInteger(member)) violations.push({ property: `${property}.${key}`, reason: "must be an integer" });
    else if (member < bounds[key]) violations.push({ property: `${property}.${key}`, reason: `must be ≥ ${bounds[key]}` });
  }
  const min = record["minAgents"];
  const max = record["maxAgents"];
  if (violations.length === 0 && (min as number) > (max as number)) {
    violations.push({ property: `${property}.minAgents`, reason: "must be ≤ maxAgents" });
  }
  return violations;
}

const RULES: Record<(typeof CREATE_FIELDS)[number], FieldRule> = {
  serviceName: serviceNameViolations,
  image: imageViolations,
  nodeType: nodeTypeViolations,
  imagePullSecretSet: secretSetNameViolations,
  secretSet: secretSetNameViolations,
  autoScaling: autoScalingViolations,
  enableNoise: booleanViolations,
};

export type Checked<T> = { ok: true; body: T } | { ok: false; violations: Violation[] };

function checkFields(input: unknown, allowed: readonly string[], required: readonly string[]): Violation[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return [{ property: "(body)", reason: "must be a JSON object" }];
  }
  const record = input as Record<string, unknown>;
  const violations: Violation[] = [];
  for (const field of required) {
    if (record[field] === undefined || record[field] === null) violations.push({ property: field, reason: "is required" });
  }
  for (const [key, value] of Object.entries(record)) {
    if (!allowed.includes(key)) {
      violations.push({ property: key, reason: "is not a field of this request" });
      continue;
    }
    if (value === null) continue;
    violations.push(...RULES[key as keyof typeof RULES](value, key));
  }
  return violations;
}

export function checkCreateBody(input: unknown): Checked<CreateBody> {
  const violations = checkFields(input, CREATE_FIELDS, ["serviceName", "image"]);
  return violations.length > 0 ? { ok: false, violations } : { ok: true, body: input as CreateBody };
}

/** `imageRequired` is false when updates merge: a field left out keeps its value. */
export function checkUpdateBody(input: unknown, imageRequired: boolean): Checked<UpdateBody> {
  const allowed = CREATE_FIELDS.filter((field) => field !== "serviceName");
  const violations = checkFields(input, allowed, imageRequired ? ["image"] : []);
  const record = input as Record<string, unknown> | null;
  if (typeof record === "object" && record !== null && "serviceName" in record) {
    const index = violations.findIndex((v) => v.property === "serviceName");
    violations.splice(index, 1, { property: "serviceName", reason: "cannot be changed: the agent is named by the path" });
  }
  return violations.length > 0 ? { ok: false, violations } : { ok: true, body: input as UpdateBody };
}

/** "field: reason; field: reason" */
export function describeViolations(violations: readonly Violation[]): string {
  return violations.map((v) => `${v.property}: ${v.reason}`).join("; ");
}
