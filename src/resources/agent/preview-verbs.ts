/**
 * What a preview runs, without a request unless a secret set is named.
 * `check`: every rule of the field table, all failures at once, defaults
 * applied, unknowns pass; and the secret sets an agent names, checked at the
 * service: `secretSet` and `imagePullSecretSet` must exist, and `secretSet`
 * must hold every `requiredSecrets` field. A name unknown at preview is
 * checked before the create or update is sent. The lookups are the provider
 * instance's (one GET per set and run); only names, never values, are read
 * or printed. `diff`, from the field table, inputs only: a field whose
 * change is "replace" replaces, any other change updates in place, and
 * outputs such as `activeSessionCount` or `ready` never cause a diff. The
 * previous outputs record each input as the service reports it (so drift
 * shows), in input form (asState: the scaling's live
 * `{ minReplicas, maxReplicas }` as `{ minAgents, maxAgents }`).
 */
import { sameJson } from "../../client/same-json";
import { secretSetNameProblem } from "../../client/service-names";
import { UNKNOWN_VALUE } from "../../core/engine-sentinels";
import type { RuleFailure } from "../../client/field-rules";
import type { CheckRequest, CheckResult, DiffRequest, DiffResult, Marks, Props, SecretSetLookup } from "../../core/resource-entry";
import { isReservedKey } from "../../core/state-marks";
import { validateFields } from "../../client/validate-fields";
import { AGENT_FIELDS } from "./fields";
import type { AgentField } from "./fields";
import { compareImages, IMAGE_DIGEST, pinCheckedImage } from "./image-pinning";
import { shownImage } from "./state";
import type { AgentState, RecordedInputs } from "./state";

const SET_FIELDS = ["imagePullSecretSet", "secretSet"] as const;

const listed = (names: readonly string[]): string => (names.length === 0 ? "no fields" : names.join(", "));

/** The failures of the sets `values` names (known, well-formed names only; the others are check's rules' or wait). */
export async function referenceFailures(values: Props, lookup: SecretSetLookup): Promise<RuleFailure[]> {
  const named = SET_FIELDS.filter((field) => {
    const name = values[field];
    return typeof name === "string" && name !== UNKNOWN_VALUE && secretSetNameProblem(name) === undefined;
  });
  if (named.length === 0) return [];
  const answers = await Promise.all(named.map((field) => lookup(values[field] as string)));
  const failures: RuleFailure[] = [];
  named.forEach((field, i) => {
    const name = values[field] as string;
    const set = answers[i];
    if (set === undefined) {
      failures.push({ property: field, reason: `secret set "${name}" does not exist at the service (GET /secrets/${name} answered 404)` });
      return;
    }
    const required = values["requiredSecrets"];
    if (field !== "secretSet" || !Array.isArray(required)) return;
    const missing = required.filter((f): f is string => typeof f === "string" && f !== UNKNOWN_VALUE && !set.fieldNames.includes(f));
    if (missing.length === 0) return;
    failures.push({
      property: field,
      reason: `secret set "${name}" lacks ${missing.length === 1 ? "the field" : "the fields"} ${missing.join(", ")} that requiredSecrets names; it has ${listed(set.fieldNames)}`,
    });
  });
  return failures;
}

/** Before a create or update is sent: the sets its inputs name (known by now) exist and hold the required fields. */
export async function checkReferencesBeforeSending(name: string, inputs: Props, lookup: SecretSetLookup | undefined): Promise<void> {
  if (lookup === undefined) return;
  const failures = await referenceFailures(inputs, lookup);
  if (failures.length > 0) throw new SecretSetReferenceError(name, failures);
}

/** A set the agent names is missing or lacks a required field: nothing was sent. */
export class SecretSetReferenceError extends Error {
  constructor(
    name: string,
    readonly failures: readonly RuleFailure[],
  ) {
    super(`agent "${name}": nothing was sent: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    this.name = "SecretSetReferenceError";
  }
}

const isAbsent = (value: unknown) => value === undefined || value === null;

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

/**
 * The engine prints a failing property's value beside the reason; for an
 * input the program declared secret the failure names the field in its
 * reason instead, so the value is never printed.
 */
function hideSecretValues(failures: RuleFailure[], secretInputs: readonly string[]): RuleFailure[] {
  if (secretInputs.length === 0) return failures;
  return failures.map((f) =>
    secretInputs.includes(f.property.split(/[.[]/)[0] ?? "") ? { property: "", reason: `${f.property} (a secret): ${f.reason}` } : f,
  );
}

export function checkAgent({ news, secretInputs }: CheckRequest): CheckResult {
  const found = validateFields(news, { resource: "Agent", fields: AGENT_FIELDS, isUnknown, ignoreKey: isReservedKey });
  const failures = hideSecretValues(found, secretInputs);
  const inputs: Record<string, unknown> = { ...news };
  for (const field of AGENT_FIELDS) {
    if ("default" in field && (inputs[field.name] === undefined || inputs[field.name] === null)) inputs[field.name] = field.default;
  }
  // The service names the agent after serviceName. A provider without previews
  // hands the checked inputs back as a preview's outputs, so carrying `name`
  // here keeps `agent.name` known in the preview of a create or an update.
  if (news["serviceName"] !== undefined) inputs["name"] = news["serviceName"];
  return { inputs, failures };
}

/**
 * The check verb: the rules (checkAgent), then, when they pass for them, the
 * image pinned to the digest its tag names now (image-pinning.ts) and the
 * secret sets the inputs name, looked up at the service (referenceFailures).
 */
export async function checkVerb(request: CheckRequest): Promise<CheckResult> {
  const outcome = checkAgent(request);
  // The image and the sets are looked up by the values whose rules pass (all of them, when nothing fails).
  const failing = new Set(outcome.failures.map((f) => f.property.split(/[.[]/)[0]));
  const lookups = failing.has("image") || failing.has("pinImageDigest") ? undefined : request.imageDigests;
  const [pinning, found] = await Promise.all([
    pinCheckedImage(outcome.inputs, lookups, request.secretInputs),
    request.secretSets === undefined
      ? []
      : referenceFailures(failing.size === 0 ? request.news : Object.fromEntries(Object.entries(request.news).filter(([key]) => !failing.has(key))), request.secretSets),
  ]);
  const more = hideSecretValues([...pinning, ...found], request.secretInputs);
  return more.length === 0 ? outcome : { ...outcome, failures: [...outcome.failures, ...more] };
}

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

/**
 * The diff of the inputs, and whether the secret marks changed (which only
 * the state records). The image compares as image-pinning.ts reads it back;
 * a tag that names another digest than the one recorded is a change of
 * `imageDigest`, right after `image`, which makes a new deployment.
 */
export function diffAgent(olds: AgentState, news: Props, marks: { olds: Marks; news: Marks }): DiffResult {
  const image = compareImages(olds.inputs.image, olds.imageDigest ?? marks.news.recordedImageDigest, news);
  const fields = AGENT_FIELDS.filter((f) => (f.name === "image" ? image.imageChanged : fieldChanged(f, olds.inputs, news)));
  const changed: string[] = fields.map((f) => f.name);
  // In field order, where `image` stands: after serviceName only.
  if (image.digestMoved) changed.splice(changed[0] === "serviceName" ? 1 : 0, 0, IMAGE_DIGEST);
  const replaces = fields.filter((f) => f.change === "replace").map((f) => f.name);
  const secretsChanged = !sameJson(marks.olds.secretInputs, marks.news.secretInputs);
  const localOnly = !image.digestMoved && fields.every((f) => f.change === "local");
  // An update of an agent deployed before pinning sends its image pinned for the first time: a new spec.
  const pinsFirst = image.before === undefined && typeof news[IMAGE_DIGEST] === "string";
  const deploymentKept = !image.digestMoved && !pinsFirst && fields.every((f) => f.change === "local" || f.newDeployment === false);
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
