// @ts-check
// What a run of the bench (bench/run.mjs) measures: the stack sizes and pair
// counts of a whole run and of a quick one, and the groups in order, each
// with the figure ids it writes. bench/run.mjs records a group that writes
// other ids as failed, and test/integration/committed-files.test.ts holds
// the committed bench/results.json to the whole plan's groups and ids.
import { connectionFigures } from "./figures/connections.mjs";
import { engineFigures } from "./figures/engine.mjs";
import { logFigures } from "./figures/logs.mjs";
import { readinessFigures } from "./figures/readiness.mjs";
import { REGISTRY_MODES, registryFigures } from "./figures/registry.mjs";
import { rollingFigures } from "./figures/rolling.mjs";
import { sizeFigures } from "./figures/sizes.mjs";

/**
 * @typedef {{ sizes: { small: number, large: number }, pairs: number, largePairs: number }} Plan
 * @typedef {{ id: string, measure: (ctx: any) => Promise<import("./lib/figure.mjs").Figure[]>, figures: string[], samples?: number }} Group
 */

/** @type {{ whole: Plan, quick: Plan }} Stack sizes, pairs at the small size (and runs of the other repeated figures), pairs at the large size. */
export const PLANS = {
  whole: { sizes: { small: 50, large: 400 }, pairs: 5, largePairs: 2 },
  quick: { sizes: { small: 10, large: 20 }, pairs: 1, largePairs: 1 },
};

/**
 * The ids bench/figures/engine.mjs writes for `path` at `n` agents: per operation (destroy only at the small
 * size) against the control and, on the dynamic path, the trivial floor; requests and memory; CPU at the large size.
 * @param {"dynamic" | "native"} path @param {number} n @param {boolean} large
 */
function engineIds(path, n, large) {
  const prefix = path === "native" ? "native-" : "";
  const ops = large ? ["up", "preview"] : ["up", "preview", "destroy"];
  const families = [...ops.flatMap((op) => [`${op}-control`, ...(path === "dynamic" ? [`${op}-floor`] : [])]), "requests-up", "memory", ...(large ? ["cpu-up", "cpu-preview"] : [])];
  return families.map((family) => `${prefix}${family}-${n}`);
}

/**
 * The groups of a run of `plan`, in order: the dynamic group at the small size makes the Agent sample and the state the size and bump figures read.
 * @param {Plan} plan @returns {Group[]}
 */
export function groupsOf(plan) {
  const { small, large } = plan.sizes;
  /** @param {"dynamic" | "native"} path @param {number} n @returns {Group} */
  const engine = (path, n) => ({ id: `${path}-${n}`, measure: (ctx) => engineFigures(ctx, path, n), figures: engineIds(path, n, n === large) });
  return [
    engine("dynamic", small),
    {
      id: "size",
      measure: sizeFigures,
      figures: ["provider-bytes", "provider-bytes-grown", "provider-bytes-control", "state-bytes", "state-bytes-trivial", "state-duplicates"],
    },
    { id: "bump", measure: rollingFigures, figures: [`bump-control-${small}`, `requests-bump-${small}`] },
    engine("native", small),
    engine("dynamic", large),
    engine("native", large),
    { id: "logs", measure: logFigures, figures: ["logs", "logs-memory"] },
    { id: "connections", measure: connectionFigures, figures: ["connections"] },
    { id: "readiness", measure: readinessFigures, figures: ["readiness"] },
    // One preview a mode: a count the registry's protocol fixes, with no noise to pair against.
    { id: "registry", measure: registryFigures, figures: REGISTRY_MODES.map((mode) => `${mode.family}-${large}`), samples: 1 },
  ];
}
