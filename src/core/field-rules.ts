/**
 * The rules an Agent's fields and the functions' arguments must follow.
 *
 * Plain functions, no schema library: `check` runs in every preview, so this
 * module loads nothing heavy. Each rule answers the reason a value breaks it,
 * or undefined when it passes.
 */

export const SERVICE_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
export const SECRET_SET_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const TAG_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST_PATTERN = /^sha256:[a-f0-9]{64}$/;

/** A failed rule: the dotted field path and what the rule requires. */
export interface RuleFailure {
  property: string;
  reason: string;
}

export type Rule = (value: unknown) => string | undefined;

/** A name: a string of `min` to `max` characters matching `pattern` (`shape` says what that means). */
function nameRule(min: number, max: number, pattern: RegExp, shape: string): Rule {
  return (value) => {
    if (typeof value !== "string") return "must be a string";
    if (value.length < min || value.length > max) return `must be ${min} to ${max} characters`;
    return pattern.test(value) ? undefined : shape;
  };
}

export const serviceNameProblem: Rule = nameRule(
  1,
  54,
  SERVICE_NAME_PATTERN,
  "must match ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$: lowercase letters, digits and hyphens, starting and ending with a letter or digit",
);

export const secretSetNameProblem: Rule = nameRule(
  3,
  63,
  SECRET_SET_NAME_PATTERN,
  "must be a lowercase DNS subdomain: letters, digits, '-' and '.', starting and ending with a letter or digit",
);

export const imageProblem: Rule = (value) => {
  if (typeof value !== "string") return "must be a string";
  if (value.length === 0) return "must not be empty";
  if (/\s/.test(value)) return "must not contain whitespace";
  const at = value.indexOf("@");
  if (at >= 0) {
    return at > 0 && DIGEST_PATTERN.test(value.slice(at + 1))
      ? undefined
      : "a digest must have the form name@sha256:<64 hex digits>";
  }
  const lastSegment = value.slice(value.lastIndexOf("/") + 1);
  const colon = lastSegment.lastIndexOf(":");
  if (colon <= 0) return "must carry a tag (name:tag) or a digest (name@sha256:...)";
  if (!TAG_PATTERN.test(lastSegment.slice(colon + 1))) {
    return "the tag must be 1 to 128 characters of letters, digits, '_', '.' or '-', not starting with '.' or '-'";
  }
  return undefined;
};

export const nodeTypeProblem: Rule = (value) => (value === "arm" ? undefined : 'only "arm" is supported');

export const booleanProblem: Rule = (value) => (typeof value === "boolean" ? undefined : "must be a boolean");

export const readyTimeoutProblem: Rule = (value) => {
  if (typeof value !== "number" || Number.isNaN(value)) return "must be a number";
  return value >= 1 && value <= 3600 ? undefined : "must be between 1 and 3600 seconds";
};

export const redeployTriggerProblem: Rule = (value) => {
  if (typeof value !== "string") return "must be a string";
  return value.length <= 256 ? undefined : "must be at most 256 characters";
};

const integerProblem = (value: unknown, min: number, rule: string): string | undefined => {
  if (typeof value !== "number" || !Number.isInteger(value)) return "must be an integer";
  return value >= min ? undefined : rule;
};

/** autoScaling { minAgents, maxAgents }: integers, 0 ≤ min ≤ max, max ≥ 1. Unknown members pass. */
export function autoScalingFailures(value: unknown, isUnknown: (v: unknown) => boolean = () => false): RuleFailure[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ property: "autoScaling", reason: "must be an object { minAgents, maxAgents }" }];
  }
  const record = value as Record<string, unknown>;
  const failures: RuleFailure[] = [];
  for (const key of Object.keys(record)) {
    if (key !== "minAgents" && key !== "maxAgents") {
      failures.push({ property: "autoScaling", reason: `unknown key "${key}": only minAgents and maxAgents` });
    }
  }
  const min = record["minAgents"];
  const max = record["maxAgents"];
  const minProblem = isUnknown(min) ? undefined : min === undefined ? "is required" : integerProblem(min, 0, "must be an integer ≥ 0");
  const maxProblem = isUnknown(max) ? undefined : max === undefined ? "is required" : integerProblem(max, 1, "must be an integer ≥ 1");
  if (minProblem) failures.push({ property: "autoScaling.minAgents", reason: minProblem });
  if (maxProblem) failures.push({ property: "autoScaling.maxAgents", reason: maxProblem });
  if (!minProblem && !maxProblem && !isUnknown(min) && !isUnknown(max) && (min as number) > (max as number)) {
    failures.push({ property: "autoScaling.minAgents", reason: "minAgents must be ≤ maxAgents" });
  }
  return failures;
}

export const onFailureProblem: Rule = (value) => (value === "keep" || value === "rollback" ? undefined : 'must be "keep" or "rollback"');

/** healthCheck { failOnLogQuery, watchSeconds }: a non-empty query, an integer 1 ≤ watchSeconds ≤ 3600. Unknown members pass. */
export function healthCheckFailures(value: unknown, isUnknown: (v: unknown) => boolean = () => false): RuleFailure[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ property: "healthCheck", reason: "must be an object { failOnLogQuery, watchSeconds }" }];
  }
  const record = value as Record<string, unknown>;
  const failures: RuleFailure[] = [];
  for (const key of Object.keys(record)) {
    if (key !== "failOnLogQuery" && key !== "watchSeconds") {
      failures.push({ property: "healthCheck", reason: `unknown key "${key}": only failOnLogQuery and watchSeconds` });
    }
  }
  const query = record["failOnLogQuery"];
  const seconds = record["watchSeconds"];
  const queryProblem = isUnknown(query)
    ? undefined
    : query === undefined
      ? "is required"
      : typeof query !== "string"
        ? "must be a string"
        : query.trim() === ""
          ? "must not be empty: it is the text whose appearance in the new deployment's logs fails it"
          : undefined;
  const secondsProblem = isUnknown(seconds)
    ? undefined
    : seconds === undefined
      ? "is required"
      : (integerProblem(seconds, 1, "must be an integer from 1 to 3600") ?? ((seconds as number) > 3600 ? "must be an integer from 1 to 3600" : undefined));
  if (queryProblem) failures.push({ property: "healthCheck.failOnLogQuery", reason: queryProblem });
  if (secondsProblem) failures.push({ property: "healthCheck.watchSeconds", reason: secondsProblem });
  return failures;
}
