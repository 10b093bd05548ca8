/**
 * The engine's special values in serialized properties, the one definition
 * the provider, the plugin and the review bin share. They are Pulumi's wire
 * constants (sdk/nodejs/runtime/rpc.ts names them too); this package keeps
 * its own copy so that modules loaded without `@pulumi/pulumi` (the review
 * bin, the plugin's struct conversion) use the same values.
 */

/** The value a preview passes for a property not known yet. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The key that marks a special value in an object. */
export const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";

/** The signature of a secret value: `{ [SIGNATURE_KEY]: SECRET_SIGNATURE, value }`. */
export const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

/** The signature of an output value, secret when its `secret` field is true. */
export const OUTPUT_SIGNATURE = "d0e6a833031e9bbcd3f4e8bde6ca49a4";

export function asSecret(value: unknown): Record<string, unknown> {
  return { [SIGNATURE_KEY]: SECRET_SIGNATURE, value };
}
