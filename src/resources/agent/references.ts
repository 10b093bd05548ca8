/**
 * The secret sets an agent names, checked at the service (design.md section
 * 4): `secretSet` and `imagePullSecretSet` must exist, and `secretSet` must
 * hold every `requiredSecrets` field. Check runs it when the names are known
 * (a preview); a name unknown then is checked before the create or update is
 * sent. The lookups are the provider instance's (one GET per set and run);
 * only names, never values, are read or printed.
 */
import type { RuleFailure } from "../../core/field-rules";
import type { Props, SecretSetLookup } from "../../core/resource-entry";
import { secretSetNameProblem } from "../../client/service-names";
import { UNKNOWN_VALUE } from "../../core/engine-sentinels";

const SET_FIELDS = ["imagePullSecretSet", "secretSet"] as const;

const listed = (names: readonly string[]): string => (names.length === 0 ? "no fields" : names.join(", "));

/** The failures of the sets `values` names (known, well-formed names only; the others are check's rules' or wait). */
export async function referenceFailures(values: Props, lookup: SecretSetLookup): Promise<RuleFailure[]> {
  const named = SET_FIELDS.filter((field) => {
    const name = values[field];
    return typeof name === "string" && name !== UNKNOWN_VALUE && secretSetNameProblem(name) === undefined;
  });
  if (named.length === 0) return [];
  const answers = await Promise.all(named.map((field) => lookup(values[field] as string)));
  const failures: RuleFailure[] = [];
  named.forEach((field, i) => {
    const name = values[field] as string;
    const set = answers[i];
    if (set === undefined) {
      failures.push({ property: field, reason: `secret set "${name}" does not exist at the service (GET /secrets/${name} answered 404)` });
      return;
    }
    const required = values["requiredSecrets"];
    if (field !== "secretSet" || !Array.isArray(required)) return;
    const missing = required.filter((f): f is string => typeof f === "string" && f !== UNKNOWN_VALUE && !set.fieldNames.includes(f));
    if (missing.length === 0) return;
    failures.push({
      property: field,
      reason: `secret set "${name}" lacks ${missing.length === 1 ? "the field" : "the fields"} ${missing.join(", ")} that requiredSecrets names; it has ${listed(set.fieldNames)}`,
    });
  });
  return failures;
}

/** Before a create or update is sent: the sets its inputs name (known by now) exist and hold the required fields. */
export async function checkReferencesBeforeSending(name: string, inputs: Props, lookup: SecretSetLookup | undefined): Promise<void> {
  if (lookup === undefined) return;
  const failures = await referenceFailures(inputs, lookup);
  if (failures.length > 0) throw new SecretSetReferenceError(name, failures);
}

/** A set the agent names is missing or lacks a required field: nothing was sent. */
export class SecretSetReferenceError extends Error {
  constructor(
    name: string,
    readonly failures: readonly RuleFailure[],
  ) {
    super(`agent "${name}": nothing was sent: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    this.name = "SecretSetReferenceError";
  }
}
