/**
 * The inputs as a provider receives them: the mock monitor hands the
 * engine's serialized values (a secret as `{ [SIGNATURE_KEY]: SECRET_SIGNATURE,
 * value }`, an output value under OUTPUT_SIGNATURE), the provider the plain
 * values, with the secret inputs listed in the marks instead.
 */
import { OUTPUT_SIGNATURE, SECRET_SIGNATURE, SIGNATURE_KEY } from "../core/engine-sentinels";

export function plainValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainValue);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  const signature = record[SIGNATURE_KEY];
  if (signature === SECRET_SIGNATURE || signature === OUTPUT_SIGNATURE) return plainValue(record["value"]);
  return Object.fromEntries(Object.entries(record).map(([key, member]) => [key, plainValue(member)]));
}

/** The inputs' plain values, and the names of those the program declared secret at their top (a secret anywhere inside counts). */
export function plainInputs(inputs: Record<string, unknown>): { plain: Record<string, unknown>; secret: string[] } {
  const secret = Object.keys(inputs).filter((key) => JSON.stringify(inputs[key] ?? null).includes(SECRET_SIGNATURE));
  return { plain: plainValue(inputs) as Record<string, unknown>, secret };
}
