/** `check`: every rule of the field table, all failures at once, defaults applied, unknowns pass. */
import { AGENT_FIELDS, validateFields, type RuleFailure } from "../model";
import { UNKNOWN_VALUE } from "./types";

export interface CheckOutcome {
  inputs: Record<string, unknown>;
  failures: RuleFailure[];
}

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

export function checkAgentInputs(_olds: Record<string, unknown>, news: Record<string, unknown>): CheckOutcome {
  const failures = validateFields(news, { fields: AGENT_FIELDS, isUnknown, ignoreKey: (key) => key.startsWith("__") });
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
