/**
 * The readings of the service document the emulator gives, crossed with its
 * two rollouts: the matrix the provider core runs against in
 * test/integration/matrix-*.test.ts. The end-to-end tier runs each behaviour
 * once, under the CLI, on the first of these (the emulator's own reading,
 * updates rolling); CONTRIBUTING.md's table says where each pair runs.
 */
import type { EmulatorOptions } from "../../support/emulator-fixture";

export interface MatrixCell {
  reading: NonNullable<EmulatorOptions["reading"]>;
  rollout: NonNullable<EmulatorOptions["rollout"]>;
}

export const READING_MATRIX: readonly MatrixCell[] = [
  { reading: "emulator", rollout: "rolling" },
  { reading: "emulator", rollout: "immediate" },
  { reading: "other", rollout: "rolling" },
  { reading: "other", rollout: "immediate" },
];

/** A service that rolls updates names the desired deployment and whether the agent serves; one that switches at once names neither. */
export const rollsUpdates = (cell: MatrixCell): boolean => cell.rollout === "rolling";

/** The other reading leaves activeSessionCount out of its answers (among the optional fields it omits). */
export const reportsSessions = (cell: MatrixCell): boolean => cell.reading === "emulator";
