/** `check`: every rule of design section 2, all failures at once, defaults applied, unknowns pass. */
import { CREATE_FIELDS, validateAgentFields, type AgentField } from "../client/rules";
import { INPUT_DEFAULTS, PROVIDER_KEY, PROVIDER_SETTINGS, UNKNOWN_VALUE } from "./types";

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckOutcome {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
}

const ALLOWED: readonly AgentField[] = [...CREATE_FIELDS, ...PROVIDER_SETTINGS];

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

export function checkAgentInputs(_olds: Record<string, unknown>, news: Record<string, unknown>): CheckOutcome {
  const failures = validateAgentFields(news, {
    required: ["serviceName", "image"],
    allowed: ALLOWED,
    isUnknown,
    ignoreKey: (key) => key.startsWith("__"),
  });
  const inputs: Record<string, unknown> = { ...news };
  for (const [key, value] of Object.entries(INPUT_DEFAULTS)) {
    if (inputs[key] === undefined || inputs[key] === null) inputs[key] = value;
  }
  // The provider key passes through untouched; nothing else is added.
  if (news[PROVIDER_KEY] !== undefined) inputs[PROVIDER_KEY] = news[PROVIDER_KEY];
  return { inputs, failures };
}
