/** How one property of an Agent shows in the review: unset, not known until apply, secret, or a value. */
import { OUTPUT_SIGNATURE, SIGNATURE_KEY, UNKNOWN_VALUE } from "../core/engine-sentinels";
import { containsSecret, isSecret, maskSecrets } from "./secrets";

export type PropertyValue =
  | { kind: "unset" }
  | { kind: "unknown" }
  | { kind: "secret" }
  | { kind: "value"; value: unknown };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Classifies a raw property value of a preview's state; `secret` forces masking. */
export function propertyValue(raw: unknown, secret: boolean): PropertyValue {
  if (raw === undefined || raw === null) return { kind: "unset" };
  if (secret || isSecret(raw)) return { kind: "secret" };
  if (raw === UNKNOWN_VALUE) return { kind: "unknown" };
  if (isRecord(raw) && raw[SIGNATURE_KEY] === OUTPUT_SIGNATURE) {
    // A serialized output value: its value when known, otherwise unknown until apply.
    return "value" in raw ? propertyValue(raw["value"], false) : { kind: "unknown" };
  }
  return { kind: "value", value: containsSecret(raw) ? maskSecrets(raw) : raw };
}

/** Whether two shown values are the same (secrets and unknowns never compare equal). */
export function sameValue(a: PropertyValue, b: PropertyValue): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind !== "value" || b.kind !== "value") return a.kind === "unset";
  return JSON.stringify(a.value) === JSON.stringify(b.value);
}
