// The growth of the per-agent cost with the stack's size, from figures
// already measured: for up, preview and destroy, the bound (p80) of a ratio
// at the large size over the one at 50, for the dynamic provider and for the
// native plugin. One sample each: the two bounds.
import { makeFigure } from "../lib/figure.mjs";
import { reportedRatio, sizedId } from "../lib/engine-stacks.mjs";

const OPERATIONS = ["up", "preview", "destroy"];

/** The bar of a ratio to a control at the large size over the one at 50. */
export const SCALING_BAR = 1.1;
const scalingRule = { method: "single", combine: "ratio", compare: "<=", limit: SCALING_BAR };

/**
 * Per operation: the scaling of the ratio to the Agent-shaped control (the
 * provider's own cost; bar ≤ 1.1) and, reported, of the ratio to the trivial
 * floor (which carries the engine's cost of an Agent's state); and the
 * scaling of the native plugin's ratio to the native control (bar ≤ 1.1).
 */
export function scalingFigures(figures, large) {
  const byId = (id) => figures.find((f) => f.id === id);
  const scaling = (op, base, id, name, rule, bar) => {
    const small = byId(base);
    const big = byId(sizedId(base, large));
    if (!small || !big) return [];
    return [makeFigure({ id, name, unit: "×", bar, rule, samples: [{ subject: big.bound, baseline: small.bound }], extra: { from: [big.id, small.id] } })];
  };
  return OPERATIONS.flatMap((op) => [
    ...scaling(op, `${op}-control`, `${op}-scaling`, `${op}: ratio to the Agent-shaped control at ${large} agents / at 50 agents (p80 of each)`, scalingRule, `≤ ${SCALING_BAR}`),
    ...scaling(op, op, `${op}-floor-scaling`, `${op}: ratio to the trivial floor at ${large} agents / at 50 agents (p80 of each)`, { ...reportedRatio, method: "single" }, "reported: follows the engine's cost of an Agent's state"),
    ...scaling(op, `native-${op}-control`, `native-${op}-scaling`, `native plugin, ${op}: ratio to the native control at ${large} agents / at 50 agents (p80 of each)`, scalingRule, `≤ ${SCALING_BAR}`),
  ]);
}
