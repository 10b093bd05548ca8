/** `check`: every rule of the field table, all failures at once, defaults applied, unknowns pass. */
import { AGENT_FIELDS, validateFields, type RuleFailure } from "../model";
import { UNKNOWN_VALUE } from "../engine-sentinels";
import { SECRET_INPUTS_KEY } from "./types";

export interface CheckOutcome {
  inputs: Record<string, unknown>;
  failures: RuleFailure[];
}

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

/**
 * The engine prints a failing property's value beside the reason; for an
 * input the program declared secret the failure names the field in its
 * reason instead, so the value is never printed.
 */
function hideSecretValues(failures: RuleFailure[], news: Record<string, unknown>): RuleFailure[] {
  const secret = news[SECRET_INPUTS_KEY];
  if (!Array.isArray(secret) || secret.length === 0) return failures;
  return failures.map((f) =>
    secret.includes(f.property.split(".")[0]) ? { property: "", reason: `${f.property} (a secret): ${f.reason}` } : f,
  );
}

export function checkAgentInputs(_olds: Record<string, unknown>, news: Record<string, unknown>): CheckOutcome {
  const found = validateFields(news, { fields: AGENT_FIELDS, isUnknown, ignoreKey: (key) => key.startsWith("__") });
  const failures = hideSecretValues(found, news);
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
