/**
 * How a new deployment of an update takes over (`--rollout`, option `rollout`).
 *
 * - "rolling" (the default), as the vendor's own update reference describes
 *   updates: the new deployment is the desired one (`desiredDeploymentId`)
 *   while the old one stays active and serves (`available`); once the desired
 *   one validates (its ready time passes) it becomes the active one. One that
 *   never validates never serves. A newer update supersedes a desired one that
 *   has not validated: that one never serves either.
 * - "immediate": the new deployment is active at once, and answers carry
 *   neither `desiredDeploymentId` nor `available` (the other reading of the
 *   service's document, in which the create answer's deployment is the active one).
 */

export type Rollout = "rolling" | "immediate";

export const ROLLOUTS: readonly Rollout[] = ["rolling", "immediate"];

export const DEFAULT_ROLLOUT: Rollout = "rolling";

export function isRollout(value: unknown): value is Rollout {
  return typeof value === "string" && (ROLLOUTS as readonly string[]).includes(value);
}
