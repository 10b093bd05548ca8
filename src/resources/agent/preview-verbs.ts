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
 *
 * Image pinning (the registry's side is src/image-registry): at check, a
 * tag-form image of an agent that pins (its `pinImageDigest`, else the
 * stack's agent-hosting:pinImageDigests, on by default) is resolved to the
 * digest its tag names now, carried by the checked inputs as `imageDigest`,
 * so a tag pushed again is a change the preview shows and the service runs
 * the build previewed. Diff compares it with the digest the state recorded
 * (the outputs', else the previous inputs', which a step without changes
 * records alone): another digest is an update naming both; none recorded (a
 * state written before pinning) is no change, and the first `up` records it.
 */
import { sameJson } from "../../client/same-json";
import { secretSetNameProblem } from "../../client/service-names";
import { UNKNOWN_VALUE } from "../../core/engine-sentinels";
import type { RuleFailure } from "../../client/field-rules";
import type { CheckRequest, CheckResult, DiffRequest, DiffResult, Marks, Props, SecretSetLookup } from "../../core/resource-entry";
import type { ImageDigestLookup } from "../../core/image-digest-lookup";
import { isReservedKey } from "../../core/state-marks";
import { isTagForm, readBackReference } from "../../image-registry/reference-parts";
import { ImageRegistryError, UNPINNED_FIX } from "../../image-registry/registry-errors";
import { validateFields } from "../../client/validate-fields";
import { AGENT_FIELDS } from "./fields";
import type { AgentField } from "./fields";
import { IMAGE_DIGEST, shownImage } from "./state";
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

/** Whether the agent pins: its own `pinImageDigest` when it gives one, else the stack's setting; undefined while unknown. */
function pins(inputs: Props, lookup: ImageDigestLookup): boolean | undefined {
  const own = inputs["pinImageDigest"];
  if (own === UNKNOWN_VALUE) return undefined;
  return typeof own === "boolean" ? own : lookup.pinByDefault;
}

/** Why the digest could not be found; for a secret image, without the reference, which would name it. */
function failureReason(name: string, error: ImageRegistryError, secretImage: boolean): string {
  if (!secretImage) return `agent "${name}": nothing was sent: ${error.message}`;
  const status = error.status === undefined ? "" : ` (HTTP ${error.status})`;
  return `agent "${name}": nothing was sent: the digest of the image (a secret) could not be resolved: ${error.kind}${status}; ${UNPINNED_FIX}`;
}

/**
 * Pins the checked inputs' image in place: `imageDigest` set to the digest
 * its tag names now, unknown while the image or whether to pin is (a
 * preview), or removed (a digest form, pinning off, no lookup). A registry
 * that cannot answer is a failure on `image`; nothing is sent.
 */
async function pinCheckedImage(inputs: Props, lookup: ImageDigestLookup | undefined, secretInputs: readonly string[]): Promise<RuleFailure[]> {
  delete inputs[IMAGE_DIGEST];
  const image = inputs["image"];
  if (lookup === undefined || typeof image !== "string" || (image !== UNKNOWN_VALUE && !isTagForm(image))) return [];
  const pin = pins(inputs, lookup);
  if (pin === undefined || (pin && image === UNKNOWN_VALUE)) inputs[IMAGE_DIGEST] = UNKNOWN_VALUE;
  if (pin !== true || image === UNKNOWN_VALUE) return [];
  try {
    inputs[IMAGE_DIGEST] = (await lookup.resolve(image)).digest;
    return [];
  } catch (error) {
    if (!(error instanceof ImageRegistryError)) throw error;
    return [{ property: "image", reason: failureReason(String(inputs["serviceName"]), error, secretInputs.includes("image")) }];
  }
}

/**
 * The check verb: the rules (checkAgent), then, when they pass for them, the
 * image pinned to the digest its tag names now and the
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
 * the state records). The image compares as the state reads it back;
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

/** What diff compares of the image: whether the image changed, and whether its tag moved to another digest. */
interface ImageComparison {
  imageChanged: boolean;
  digestMoved: boolean;
  /** The digest recorded before, when there is one. */
  before?: string;
}

/**
 * Compares the recorded image (and the digest the outputs or the previous
 * inputs recorded) with the checked inputs. An image recorded in digest form
 * (an import, or an outside update) that the tag now names is no change of
 * the image; its digest is the one recorded.
 */
function compareImages(recordedImage: unknown, recordedDigest: string | undefined, news: Props): ImageComparison {
  const image = news["image"];
  const digest = news[IMAGE_DIGEST];
  const { image: readBack, digest: fromImage } = readBackReference(recordedImage, image);
  const before = recordedDigest ?? fromImage;
  const imageChanged = image === UNKNOWN_VALUE || readBack !== image;
  const digestMoved = !imageChanged && typeof digest === "string" && before !== undefined && digest !== before;
  return before === undefined ? { imageChanged, digestMoved } : { imageChanged, digestMoved, before };
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
