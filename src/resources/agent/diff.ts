/**
 * `diff`, from the field table: inputs only. A field whose change is
 * "replace" replaces; any other change updates in place. Outputs such as
 * `activeSessionCount` or `ready` never cause a diff.
 *
 * The previous outputs record each input as the service reports it (so
 * drift shows), in input form (asState: the scaling's live
 * `{ minReplicas, maxReplicas }` as `{ minAgents, maxAgents }`).
 */
import { UNKNOWN_VALUE } from "../../core/engine-sentinels";
import type { DiffRequest, DiffResult, Marks, Props } from "../../core/resource-entry";
import { sameJson } from "../../client/same-json";
import { AGENT_FIELDS } from "./fields";
import type { AgentField } from "./fields";
import { shownImage } from "./outputs";
import type { AgentState, RecordedInputs } from "./outputs";

const isAbsent = (v: unknown) => v === undefined || v === null;

function fieldChanged(field: AgentField, recorded: RecordedInputs, news: Props): boolean {
  const old = recorded[field.name];
  let next = news[field.name];
  if (next === UNKNOWN_VALUE) return true;
  if (isAbsent(next)) {
    if (field.undeclared === "keep") return false;
    if (field.undeclared === "clear") return !isAbsent(old);
    next = field.default;
  }
  return !sameJson(isAbsent(old) ? field.default : old, next);
}

/** The diff of the inputs, and whether the secret marks changed (which only the state records). */
export function diffAgent(olds: AgentState, news: Props, marks: { olds: Marks; news: Marks }): DiffResult {
  const fields = AGENT_FIELDS.filter((f) => fieldChanged(f, olds.inputs, news));
  const changed = fields.map((f) => f.name);
  const replaces = fields.filter((f) => f.change === "replace").map((f) => f.name);
  const secretsChanged = !sameJson(marks.olds.secretInputs, marks.news.secretInputs);
  const localOnly = fields.every((f) => f.change === "local");
  const deploymentKept = fields.every((f) => f.change === "local" || f.newDeployment === false);
  const stables = replaces.length > 0 ? [] : ["name", "serviceName", "createdAt"];
  if (replaces.length === 0 && deploymentKept) stables.push("activeDeploymentId", "deployment");
  return {
    changes: changed.length > 0 || secretsChanged,
    replaces,
    changed,
    stables,
    localOnly,
    deleteBeforeReplace: false,
  };
}

const UNFINISHED = { create: "create", update: "update", rollback: "rollback to the last ready spec" } as const;

/**
 * The diff verb: a change of provider settings only is said on the resource's
 * row, since nothing is sent; so is an unfinished step of an earlier `up`
 * that the next `up` checks on (the engine shows it as an update without a
 * diff, with the inputs of the last finished step).
 */
export async function diffVerb(request: DiffRequest<AgentState>): Promise<DiffResult> {
  const { olds, news, oldMarks, newMarks, log } = request;
  const outcome = diffAgent(olds, news, { olds: oldMarks, news: newMarks });
  if (oldMarks.pending !== undefined && outcome.localOnly) {
    // On a service that rolls updates, the unfinished step's deployment is the pending one, not the one that serves.
    const deploymentId = olds.agent.desiredDeploymentId ?? olds.agent.activeDeploymentId;
    const deployment = deploymentId !== "" ? `deployment ${deploymentId}, ` : "";
    await log.info(
      `agent "${String(olds.inputs.serviceName)}": the ${UNFINISHED[oldMarks.pending]} of an earlier \`pulumi up\` did not finish (${deployment}image ${shownImage(olds.inputs.image, [...oldMarks.secretInputs, ...newMarks.secretInputs])}); \`pulumi up\` checks on it again instead of sending it twice`,
    );
  }
  if (outcome.changes && outcome.localOnly && outcome.changed.length > 0) {
    await log.info(
      `agent "${String(news["serviceName"])}": only ${outcome.changed.join(", ")} changed, which the provider keeps in the state; nothing is sent to the service`,
    );
  }
  return outcome;
}
