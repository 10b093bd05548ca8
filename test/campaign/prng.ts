/**
 * The campaign's one source of chance: mulberry32, a small seeded PRNG, so a
 * seed always draws the same steps (Math.random never appears in a campaign).
 */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** One key of `weights`, drawn in proportion to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
}

export function prng(seed: number): Prng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
    weighted: (weights) => {
      const entries = Object.entries(weights) as [keyof typeof weights & string, number][];
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let roll = next() * total;
      for (const [key, w] of entries) {
        roll -= w;
        if (roll < 0) return key;
      }
      return (entries[entries.length - 1] as [keyof typeof weights & string, number])[0];
    },
  };
}
