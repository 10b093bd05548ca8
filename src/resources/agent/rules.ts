/**
 * The rules of the Agent's own fields (src/resources/agent/fields.ts): its
 * provider settings. The rules of the fields it sends are the service's
 * (src/client/agent-body.ts, src/client/service-names.ts).
 */
import { integerProblem, objectMembers } from "../../core/field-rules";
import type { Rule, RuleFailure } from "../../core/field-rules";

export const readyTimeoutProblem: Rule = (value) => {
  if (typeof value !== "number" || Number.isNaN(value)) return "must be a number";
  return value >= 1 && value <= 3600 ? undefined : "must be between 1 and 3600 seconds";
};

export const redeployTriggerProblem: Rule = (value) => {
  if (typeof value !== "string") return "must be a string";
  return value.length <= 256 ? undefined : "must be at most 256 characters";
};

export const onFailureProblem: Rule = (value) => (value === "keep" || value === "rollback" ? undefined : 'must be "keep" or "rollback"');

/** healthCheck's failOnLogQuery: the text whose appearance in the logs fails the deployment. */
const logQueryProblem: Rule = (query) => {
  if (query === undefined) return "is required";
  if (typeof query !== "string") return "must be a string";
  return query.trim() === "" ? "must not be empty: it is the text whose appearance in the new deployment's logs fails it" : undefined;
};

/** healthCheck's watchSeconds: an integer from 1 to 3600. */
const watchSecondsProblem: Rule = (seconds) => {
  if (seconds === undefined) return "is required";
  const rule = "must be an integer from 1 to 3600";
  return integerProblem(seconds, 1, rule) ?? ((seconds as number) > 3600 ? rule : undefined);
};

/** healthCheck { failOnLogQuery, watchSeconds }: a non-empty query, an integer 1 ≤ watchSeconds ≤ 3600. Unknown members pass. */
export function healthCheckFailures(value: unknown, isUnknown: (v: unknown) => boolean): RuleFailure[] {
  const { record, failures } = objectMembers("healthCheck", value, ["failOnLogQuery", "watchSeconds"]);
  if (!record) return failures;
  const query = record["failOnLogQuery"];
  const seconds = record["watchSeconds"];
  const queryProblem = isUnknown(query) ? undefined : logQueryProblem(query);
  const secondsProblem = isUnknown(seconds) ? undefined : watchSecondsProblem(seconds);
  if (queryProblem) failures.push({ property: "healthCheck.failOnLogQuery", reason: queryProblem });
  if (secondsProblem) failures.push({ property: "healthCheck.watchSeconds", reason: secondsProblem });
  return failures;
}

/** requiredSecrets: a list of distinct, non-empty field names of the secret set (its items may be unknown in a preview). */
export function requiredSecretsFailures(value: unknown, isUnknown: (v: unknown) => boolean): RuleFailure[] {
  if (!Array.isArray(value)) return [{ property: "requiredSecrets", reason: "must be a list of field names of secretSet" }];
  const failures: RuleFailure[] = [];
  const seen = new Set<string>();
  value.forEach((name, index) => {
    if (isUnknown(name)) return;
    const property = `requiredSecrets[${index}]`;
    if (typeof name !== "string" || name.trim() === "") failures.push({ property, reason: "must be a non-empty field name" });
    else if (seen.has(name)) failures.push({ property, reason: `duplicate of ${JSON.stringify(name)}` });
    else seen.add(name);
  });
  return failures;
}

/** drainSeconds: how long a delete waits for the agent's live sessions to end, an integer from 0 to 14400. */
export const drainSecondsProblem: Rule = (value) => {
  const rule = "must be an integer from 0 to 14400";
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 14400 ? undefined : rule;
};
