/**
 * The preview pairs of the bench (bench/lib/engine-stacks.mjs): each side
 * previewed twice per pair, in mirrored order with the first side
 * alternating, its time the mean of its two, and what is measured beside a
 * preview averaged the same way.
 */
import { describe, expect, it } from "vitest";
import { mirroredOrder, PREVIEW_TIMINGS_PER_SIDE, previewPairs, sideTimes } from "../../bench/lib/engine-stacks.mjs";

/** Stacks whose preview records its side. */
function fakeStacks(keys: string[], calls: string[]) {
  return Object.fromEntries(keys.map((key) => [key, { stack: { preview: async () => void calls.push(key) } }]));
}

describe("previewPairs", () => {
  it("mirrors the order within a pair and alternates the first side between pairs", () => {
    expect(PREVIEW_TIMINGS_PER_SIDE).toBe(2);
    expect(mirroredOrder(true, ["agents", "trivial", "shaped"])).toEqual(["agents", "trivial", "shaped", "shaped", "trivial", "agents"]);
    expect(mirroredOrder(false, ["agents", "shaped"])).toEqual(["shaped", "agents", "agents", "shaped"]);
  });

  it("times each side twice a pair and keeps its timings, their mean and the mean of what is read beside", async () => {
    const calls: string[] = [];
    const lines: string[] = [];
    const stacks = fakeStacks(["agents", "shaped"], calls);
    const aroundPreview = async (key: string, preview: () => Promise<number>) => (await preview(), key === "agents" ? 3 : undefined);
    const pairs = await previewPairs(
      { pairs: 2, log: (line: string) => lines.push(line) },
      stacks,
      {},
      (ms: Record<string, number>, i: number, beside: Record<string, number | undefined>, timings: Record<string, number[]>) =>
        `pair ${i}: agents ${sideTimes(ms, timings, "agents")} beside ${beside.agents}/${beside.shaped}`,
      aroundPreview,
    );
    expect(calls).toEqual(["agents", "shaped", "shaped", "agents", "shaped", "agents", "agents", "shaped"]);
    expect(pairs.map((p) => p.first)).toEqual([true, false]);
    for (const pair of pairs) {
      for (const key of ["agents", "shaped"]) {
        const [a, b] = pair.timings[key]!;
        expect(pair.timings[key]).toHaveLength(2);
        expect(pair.ms[key]).toBeCloseTo((a! + b!) / 2, 2);
      }
      expect(pair.beside).toEqual({ agents: 3, shaped: undefined });
    }
    expect(lines[0]).toMatch(/^pair 0: agents \d+ \(\d+ \/ \d+\) beside 3\/undefined$/);
  });
});
