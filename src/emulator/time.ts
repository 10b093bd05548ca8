/** Nanosecond clock and ISO timestamps with all nine fractional digits. */

let last = 0n;

/** Epoch nanoseconds, strictly increasing within the process. */
export function nowNs(): bigint {
  const wall = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
  last = wall > last ? wall : last + 1n;
  return last;
}

export function msToNs(ms: number): bigint {
  return BigInt(Math.round(ms)) * 1_000_000n;
}

/** "2026-11-23T06:00:00.123456789Z" */
export function isoNs(ns: bigint): string {
  const ms = Number(ns / 1_000_000n);
  const base = new Date(ms).toISOString().slice(0, 19);
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, "0");
  return `${base}.${fraction}Z`;
}

/** Moves the clock past `ns` (after entries were written with future stamps). */
export function advancePast(ns: bigint): void {
  if (last < ns) last = ns;
}
