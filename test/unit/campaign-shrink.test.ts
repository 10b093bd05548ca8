/**
 * The campaign's shrinking (test/campaign/shrink.ts) against a stand-in for a
 * case's run: a case fails when it holds every step of a hidden cause, so the
 * minimal case is that cause, and a budget too small says the result is not
 * shown minimal.
 */
import { describe, expect, it } from "vitest";
import { shrink } from "../campaign/shrink";
import type { CampaignCase, CaseResult } from "../campaign/runner";
import type { Step } from "../campaign/steps";

const op = (n: number): Step => ({ kind: "add", agent: { resource: `bot${n}`, serviceName: `c${n}-bot`, image: "registry.example.com/bot:1" } });
const numberOf = (step: Step): number => Number(step.kind === "add" ? step.agent.resource.slice(3) : -1);

/** A run that fails "the end" after its last step when the case holds every step in `cause` in that order. */
function runner(cause: number[]): { run: (c: CampaignCase) => Promise<CaseResult>; runs: () => number } {
  let runs = 0;
  return {
    runs: () => runs,
    run: async (c) => {
      runs += 1;
      const held = c.steps.map(numberOf);
      const fails = cause.every((n) => held.includes(n)) && cause.every((n, i) => i === 0 || held.indexOf(cause[i - 1] as number) < held.indexOf(n));
      return fails ? { violation: { invariant: "the end", detail: "left", step: c.steps.length + 1, label: "final destroy" }, stepsRun: c.steps.length, checks: {} } : { stepsRun: c.steps.length, checks: {} };
    },
  };
}

const failing = (n: number): CampaignCase => ({ path: "dynamic", rollout: "rolling", steps: Array.from({ length: n }, (_, i) => op(i + 1)) });
const first = (c: CampaignCase): CaseResult => ({ violation: { invariant: "the end", detail: "left", step: c.steps.length + 1, label: "final destroy" }, stepsRun: c.steps.length, checks: {} });

describe("shrink", () => {
  it("removes every step outside the cause and says the case is minimal", async () => {
    const c = failing(30);
    const r = runner([3, 17, 18, 29]);
    const shrunk = await shrink(c, first(c), r.run, 200);
    expect(shrunk.minimal.steps.map(numberOf)).toEqual([3, 17, 18, 29]);
    expect(shrunk.isMinimal).toBe(true);
    expect(shrunk.runs).toBe(r.runs());
  });

  it("with too few runs, answers a smaller case that still fails and says it is not shown minimal", async () => {
    const c = failing(30);
    const r = runner([3, 17, 18, 29]);
    const shrunk = await shrink(c, first(c), r.run, 12);
    expect(shrunk.runs).toBe(12);
    expect(shrunk.isMinimal).toBe(false);
    expect(shrunk.minimal.steps.length).toBeLessThan(30);
    expect(shrunk.minimal.steps.length).toBeGreaterThan(4);
    expect((await r.run(shrunk.minimal)).violation?.invariant).toBe("the end");
  });
});
