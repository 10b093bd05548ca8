// The growth of the per-agent cost with the stack's size, from figures
// already measured: for up, preview and destroy, the bound (p80) of a ratio
// at the large size over the one at 50, for the dynamic provider and for the
// native plugin. One sample each: the two bounds.
import { reportedRatio, sizedId } from "../lib/engine-stacks.mjs";
import { declaredFigure, ruleTable } from "../lib/rules.mjs";

const OPERATIONS = ["up", "preview", "destroy"];

/** The bar of a ratio to a control at the large size over the one at 50. */
export const SCALING_BAR = 1.1;
const scalingRule = { method: "single", combine: "ratio", compare: "<=", limit: SCALING_BAR };
const scalingBar = `≤ ${SCALING_BAR}`;

/** Each figure of this module and the figure (its id at 50 agents) whose bounds it divides (bench/lib/rules.mjs). */
export const SOURCES = Object.fromEntries(
  OPERATIONS.flatMap((op) => [
    [`${op}-scaling`, `${op}-control`],
    [`${op}-floor-scaling`, op],
    [`native-${op}-scaling`, `native-${op}-control`],
  ]),
);

/** The rule and the bar of every figure this module makes, by id (bench/lib/rules.mjs). */
export const RULES = ruleTable(
  Object.fromEntries(
    OPERATIONS.flatMap((op) => [
      [`${op}-scaling`, { bar: scalingBar, rule: scalingRule }],
      [`${op}-floor-scaling`, { bar: "reported: follows the engine's cost of an Agent's state", rule: { ...reportedRatio, method: "single" } }],
      [`native-${op}-scaling`, { bar: scalingBar, rule: scalingRule }],
    ]),
  ),
);

/**
 * Per operation: the scaling of the ratio to the Agent-shaped control (the
 * provider's own cost; bar ≤ 1.1) and, reported, of the ratio to the trivial
 * floor (which carries the engine's cost of an Agent's state); and the
 * scaling of the native plugin's ratio to the native control (bar ≤ 1.1).
 */
export function scalingFigures(figures, large) {
  const byId = (id) => figures.find((f) => f.id === id);
  const scaling = (id, name) => {
    const base = SOURCES[id];
    const small = byId(base);
    const big = byId(sizedId(base, large));
    if (!small || !big) return [];
    return [declaredFigure(RULES, { id, name, unit: "×", samples: [{ subject: big.bound, baseline: small.bound }], extra: { from: [big.id, small.id] } })];
  };
  return OPERATIONS.flatMap((op) => [
    ...scaling(`${op}-scaling`, `${op}: ratio to the Agent-shaped control at ${large} agents / at 50 agents (p80 of each)`),
    ...scaling(`${op}-floor-scaling`, `${op}: ratio to the trivial floor at ${large} agents / at 50 agents (p80 of each)`),
    ...scaling(`native-${op}-scaling`, `native plugin, ${op}: ratio to the native control at ${large} agents / at 50 agents (p80 of each)`),
  ]);
}
