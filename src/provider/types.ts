/** Names the dynamic provider shares with the engine and the SDK. */

/** The dynamic provider's reserved property holding the serialized provider. */
export const PROVIDER_KEY = "__provider";

/** The value a preview passes for an input not known yet. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Names of the inputs the program declared as secrets (set by the Agent class, kept in the outputs). */
export const SECRET_INPUTS_KEY = "__secretInputs";

/** The Agent's URN among its inputs (set by the Agent class), so progress lines go to the resource's own row. */
export const URN_KEY = "__urn";

/**
 * Set in the outputs while a create or update was sent but did not finish:
 * the next `up` waits for it instead of sending it again.
 */
export const PENDING_KEY = "__pending";

/** The engine's marker of a secret value in a property. */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG_VALUE = "1b47061264138c4ac30d75fd1eb44270";

export function asSecret(value: unknown): Record<string, unknown> {
  return { [SECRET_SIG_KEY]: SECRET_SIG_VALUE, value };
}
