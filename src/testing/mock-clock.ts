/**
 * The times and ids the mocks report: fixed, or derived from the inputs, so
 * that the same program gives the same outputs in every run and a test can
 * assert them.
 */
import { createHash } from "node:crypto";

/** `createdAt` and `updatedAt` of every mocked agent and deployment, in the service's nanosecond form. */
export const MOCK_TIME = "2026-01-01T00:00:00.000000000Z";

/** Epoch nanoseconds of MOCK_TIME: the first mocked log line's time; each further line is one second later. */
export const MOCK_TIME_NS = BigInt(Date.parse(MOCK_TIME)) * 1_000_000n;

/** Keys sorted at every level, so the same value gives the same text whatever order its members were written in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, canonical(record[key])]));
}

/** `<prefix>-<12 hex digits>`, the service's form of an id, from the SHA-256 of `parts`. */
export function derivedId(prefix: string, ...parts: unknown[]): string {
  return `${prefix}-${createHash("sha256").update(JSON.stringify(canonical(parts))).digest("hex").slice(0, 12)}`;
}
