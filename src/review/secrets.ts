/**
 * Secret values in a preview document. `pulumi preview --json` replaces a
 * secret by the string "[secret]"; serialized property values mark one with
 * Pulumi's signature key, either as a secret value or as an output value
 * flagged `secret: true`. Every form is masked to "[secret]".
 */

import { OUTPUT_SIGNATURE, SECRET_SIGNATURE, SIGNATURE_KEY } from "../core/engine-sentinels";
import type { PreviewState } from "./preview";

/** What a masked value shows, the same text the CLI prints. */
export const MASKED = "[secret]";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether the value itself (not something inside it) is a secret. */
export function isSecret(value: unknown): boolean {
  if (value === MASKED) return true;
  if (!isRecord(value)) return false;
  const signature = value[SIGNATURE_KEY];
  return signature === SECRET_SIGNATURE || (signature === OUTPUT_SIGNATURE && value["secret"] === true);
}

/** Whether the value is, or holds anywhere inside it, a secret. */
export function containsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (isRecord(value)) return Object.values(value).some(containsSecret);
  return false;
}

/** A copy of the value with every secret inside it replaced by "[secret]". */
export function maskSecrets(value: unknown): unknown {
  if (isSecret(value)) return MASKED;
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v)]));
  return value;
}

/**
 * A diagnostic's text with every secret value the engine printed in it
 * masked. The engine formats a property value into some messages (a failed
 * check says `property image value {...} has a problem`), and a secret then
 * prints as `&{{value}}`, its Go form, in the clear.
 */
export function maskSecretsInText(text: string): string {
  let out = "";
  let i = 0;
  for (;;) {
    const start = text.indexOf("&{{", i);
    if (start === -1) return out + text.slice(i);
    let depth = 0;
    let end = start + 1;
    for (; end < text.length; end++) {
      if (text[end] === "{") depth++;
      else if (text[end] === "}" && --depth === 0) break;
    }
    out += text.slice(i, start) + MASKED;
    i = end + 1;
  }
}

/**
 * The properties that are secret in any of a resource's states (listed as
 * additional secret outputs, or holding a secret in one of `bags`): then
 * every view of them is masked.
 */
export function secretPropertyNames(states: readonly (PreviewState | undefined)[], bags: readonly ("inputs" | "outputs")[] = ["inputs", "outputs"]): Set<string> {
  const names = new Set<string>();
  for (const state of states) {
    for (const name of state?.additionalSecretOutputs ?? []) names.add(name);
    for (const bag of bags) {
      for (const [name, raw] of Object.entries(state?.[bag] ?? {})) if (containsSecret(raw)) names.add(name);
    }
  }
  return names;
}
