/**
 * `diff`, from the field table: inputs only. A field whose change is
 * "replace" replaces; any other change updates in place. Outputs such as
 * `activeSessionCount` or `ready` never cause a diff.
 *
 * `olds` are the resource's outputs: each input as the service reports it
 * (so drift shows), and, for scaling, the live `{ minReplicas, maxReplicas }`.
 */
import { UNKNOWN_VALUE } from "../../core/engine-sentinels";
import type { FieldSpec } from "../../core/field-table";
import type { DiffRequest, DiffResult, Marks } from "../../core/resource-entry";
import { sameJson } from "../../core/same-json";
import { AGENT_FIELDS } from "./fields";
import { shownImage } from "./outputs";

const isAbsent = (v: unknown) => v === undefined || v === null;

/** An old output in input form: object members under their answer names are read back under their input names. */
function oldValue(field: FieldSpec, olds: Record<string, unknown>): unknown {
  const old = olds[field.name];
  if (!field.properties || typeof old !== "object" || old === null) return old;
  const record = old as Record<string, unknown>;
  return Object.fromEntries(field.properties.map((p) => [p.name, record[p.name] ?? (p.answerName === undefined ? undefined : record[p.answerName])]));
}

function fieldChanged(field: FieldSpec, olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  let next = news[field.name];
  if (next === UNKNOWN_VALUE) return true;
  if (isAbsent(next)) {
    if (field.undeclared === "keep") return false;
    if (field.undeclared === "clear") return !isAbsent(olds[field.name]);
    next = field.default;
  }
  const old = oldValue(field, olds);
  return !sameJson(isAbsent(old) ? field.default : old, next);
}

/** The diff of the inputs, and whether the secret marks changed (which only the state records). */
export function diffAgent(olds: Record<string, unknown>, news: Record<string, unknown>, marks: { olds: Marks; news: Marks }): DiffResult {
  const table: readonly FieldSpec[] = AGENT_FIELDS;
  const fields = table.filter((f) => fieldChanged(f, olds, news));
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
export async function diffVerb(request: DiffRequest): Promise<DiffResult> {
  const { olds, news, oldMarks, newMarks, log } = request;
  const outcome = diffAgent(olds, news, { olds: oldMarks, news: newMarks });
  if (oldMarks.pending !== undefined && outcome.localOnly) {
    // On a service that rolls updates, the unfinished step's deployment is the pending one, not the one that serves.
    const deploymentId = olds["desiredDeploymentId"] ?? olds["activeDeploymentId"];
    const deployment = typeof deploymentId === "string" && deploymentId !== "" ? `deployment ${deploymentId}, ` : "";
    await log.info(
      `agent "${String(olds["serviceName"])}": the ${UNFINISHED[oldMarks.pending]} of an earlier \`pulumi up\` did not finish (${deployment}image ${shownImage(olds["image"], [...oldMarks.secretInputs, ...newMarks.secretInputs])}); \`pulumi up\` checks on it again instead of sending it twice`,
    );
  }
  if (outcome.changes && outcome.localOnly && outcome.changed.length > 0) {
    await log.info(
      `agent "${String(news["serviceName"])}": only ${outcome.changed.join(", ")} changed, which the provider keeps in the state; nothing is sent to the service`,
    );
  }
  return outcome;
}
