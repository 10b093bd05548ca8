/** `check`: every rule of the field table, all failures at once, defaults applied, unknowns pass. */
import { UNKNOWN_VALUE } from "../../core/engine-sentinels";
import type { RuleFailure } from "../../core/field-rules";
import type { CheckRequest, CheckResult } from "../../core/resource-entry";
import { isReservedKey } from "../../core/state-marks";
import { validateFields } from "../../core/validate-fields";
import { AGENT_FIELDS } from "./fields";
import { referenceFailures } from "./references";

const isAbsent = (value: unknown) => value === undefined || value === null;

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

/**
 * The engine prints a failing property's value beside the reason; for an
 * input the program declared secret the failure names the field in its
 * reason instead, so the value is never printed.
 */
function hideSecretValues(failures: RuleFailure[], secretInputs: readonly string[]): RuleFailure[] {
  if (secretInputs.length === 0) return failures;
  return failures.map((f) =>
    secretInputs.includes(f.property.split(/[.[]/)[0] ?? "") ? { property: "", reason: `${f.property} (a secret): ${f.reason}` } : f,
  );
}

export function checkAgent({ news, secretInputs }: CheckRequest): CheckResult {
  const found = validateFields(news, { resource: "Agent", fields: AGENT_FIELDS, isUnknown, ignoreKey: isReservedKey });
  const required = news["requiredSecrets"];
  if (isAbsent(news["secretSet"]) && !isAbsent(required) && !(Array.isArray(required) && required.length === 0)) {
    found.push({ property: "requiredSecrets", reason: "needs secretSet: the set whose fields it names" });
  }
  const failures = hideSecretValues(found, secretInputs);
  const inputs: Record<string, unknown> = { ...news };
  for (const field of AGENT_FIELDS) {
    if ("default" in field && (inputs[field.name] === undefined || inputs[field.name] === null)) inputs[field.name] = field.default;
  }
  // The service names the agent after serviceName. A provider without previews
  // hands the checked inputs back as a preview's outputs, so carrying `name`
  // here keeps `agent.name` known in the preview of a create or an update.
  if (news["serviceName"] !== undefined) inputs["name"] = news["serviceName"];
  return { inputs, failures };
}

/**
 * The check verb: the rules (checkAgent), then, when they pass for them, the
 * secret sets the inputs name, looked up at the service (references.ts).
 */
export async function checkVerb(request: CheckRequest): Promise<CheckResult> {
  const outcome = checkAgent(request);
  if (request.secretSets === undefined) return outcome;
  // The sets are looked up by the values whose rules pass (all of them, when nothing fails).
  const failing = new Set(outcome.failures.map((f) => f.property.split(/[.[]/)[0]));
  const named = failing.size === 0 ? request.news : Object.fromEntries(Object.entries(request.news).filter(([key]) => !failing.has(key)));
  const found = await referenceFailures(named, request.secretSets);
  return found.length === 0 ? outcome : { ...outcome, failures: [...outcome.failures, ...hideSecretValues(found, request.secretInputs)] };
}
