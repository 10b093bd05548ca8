/** Names the dynamic provider shares with the engine and the SDK. */

/** The dynamic provider's reserved property holding the serialized provider. */
export const PROVIDER_KEY = "__provider";

/** Names of the inputs the program declared as secrets (set by the Agent class, kept in the outputs). */
export const SECRET_INPUTS_KEY = "__secretInputs";

/** The Agent's URN among its inputs (set by the Agent class), so progress lines go to the resource's own row. */
export const URN_KEY = "__urn";

/**
 * Set in the outputs while a create or update was sent but did not finish:
 * the next `up` waits for it instead of sending it again.
 */
export const PENDING_KEY = "__pending";
