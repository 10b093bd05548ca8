/**
 * `diff`, from the field table: inputs only. A field whose change is
 * "replace" replaces; any other change updates in place. Outputs such as
 * `activeSessionCount` or `ready` never cause a diff.
 *
 * `olds` are the resource's outputs: each input as the service reports it
 * (so drift shows), and, for scaling, the live `{ minReplicas, maxReplicas }`.
 */
import { AGENT_FIELDS, sameJson, type AgentField } from "../model";
import { UNKNOWN_VALUE } from "../engine-sentinels";
import { SECRET_INPUTS_KEY } from "./types";

export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  /** Changed inputs, in field order. */
  changed: string[];
  /** Outputs the update will not change. */
  stables: string[];
  /** Nothing needs to be sent to the service: only settings kept in the state changed. */
  localOnly: boolean;
  deleteBeforeReplace: boolean;
}

const isAbsent = (v: unknown) => v === undefined || v === null;

/** An old output in input form: object members under their answer names are read back under their input names. */
function oldValue(field: AgentField, olds: Record<string, unknown>): unknown {
  const old = olds[field.name];
  if (!field.properties || typeof old !== "object" || old === null) return old;
  const record = old as Record<string, unknown>;
  return Object.fromEntries(field.properties.map((p) => [p.name, record[p.name] ?? record[p.answerName]]));
}

function fieldChanged(field: AgentField, olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
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

export function diffAgent(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  const fields = (AGENT_FIELDS as readonly AgentField[]).filter((f) => fieldChanged(f, olds, news));
  const changed = fields.map((f) => f.name);
  const replaces = fields.filter((f) => f.change === "replace").map((f) => f.name);
  const secretsChanged = !sameJson(olds[SECRET_INPUTS_KEY] ?? [], news[SECRET_INPUTS_KEY] ?? []);
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
