/**
 * How the provider's marks are kept among a resource's properties in the
 * state (the same on both hosts, and what 0.1.0 wrote): `__secretInputs`
 * lists the inputs the program declared secret, `__pending` marks a create
 * or update that was sent and did not finish, `__lastReady` the spec such an
 * update replaced (secret when any input is); and, in checked inputs only,
 * `__recordedImageDigest` the image digest the previous inputs recorded. Only
 * the hosts read and write these keys; verbs see typed Marks.
 */
import { asSecret, SECRET_SIGNATURE, SIGNATURE_KEY } from "./engine-sentinels";
import type { Marks, Props } from "./resource-entry";

const SECRET_INPUTS_KEY = "__secretInputs";
const PENDING_KEY = "__pending";
const LAST_READY_KEY = "__lastReady";
/** In checked inputs only (never in outputs): the image digest the previous inputs recorded (Marks.recordedImageDigest). */
const RECORDED_IMAGE_DIGEST_KEY = "__recordedImageDigest";

const isRecord = (value: unknown): value is Props => typeof value === "object" && value !== null && !Array.isArray(value);

/** A kept last ready spec, whether the state holds it as a secret or plain. */
function lastReadyOf(value: unknown): Marks["lastReady"] {
  const plain = isRecord(value) && value[SIGNATURE_KEY] === SECRET_SIGNATURE ? value["value"] : value;
  if (!isRecord(plain) || typeof plain["deploymentId"] !== "string" || !isRecord(plain["spec"])) return undefined;
  return { deploymentId: plain["deploymentId"], spec: plain["spec"] };
}

/** Whether a property is one of the provider's or the engine's own (`__provider`, `__secretInputs`, ...), not a resource property. */
export const isReservedKey = (key: string): boolean => key.startsWith("__");

/** The marks kept in properties (old outputs, or inputs as a dynamic resource class passes them). */
export function marksOf(props: Props): Marks {
  const listed = props[SECRET_INPUTS_KEY];
  const secretInputs = Array.isArray(listed) ? listed.filter((v): v is string => typeof v === "string") : [];
  const pending = props[PENDING_KEY];
  const marks: Marks = pending === "create" || pending === "update" || pending === "rollback" ? { secretInputs, pending } : { secretInputs };
  const lastReady = lastReadyOf(props[LAST_READY_KEY]);
  if (lastReady) marks.lastReady = lastReady;
  const recordedImageDigest = props[RECORDED_IMAGE_DIGEST_KEY];
  if (typeof recordedImageDigest === "string") marks.recordedImageDigest = recordedImageDigest;
  return marks;
}

/** The properties without the reserved keys (which `__proto__` is one of, so plain assignment is safe). */
export function withoutReserved(props: Props): Props {
  const kept: Props = {};
  for (const key of Object.keys(props)) if (!isReservedKey(key)) kept[key] = props[key];
  return kept;
}

/**
 * Checked inputs carrying the image digest the previous inputs recorded (the
 * engine hands check the state's inputs, but diff only its outputs, which a
 * step without changes leaves as they were).
 */
export function withRecordedImageDigest(checked: Props, oldInputs: Props): Props {
  const recorded = oldInputs["imageDigest"];
  return typeof recorded === "string" ? { ...checked, [RECORDED_IMAGE_DIGEST_KEY]: recorded } : checked;
}

/** Outputs with the marks written in (nothing is written for empty marks, which keeps each state small). */
export function withMarks(outputs: Props, marks: Marks): Props {
  const marked: Props = { ...outputs };
  if (marks.secretInputs.length > 0) marked[SECRET_INPUTS_KEY] = [...marks.secretInputs];
  if (marks.pending) marked[PENDING_KEY] = marks.pending;
  if (marks.lastReady) marked[LAST_READY_KEY] = marks.secretInputs.length > 0 ? asSecret(marks.lastReady) : { ...marks.lastReady };
  return marked;
}

/** The key a dynamic resource class sets to list its secret inputs. */
export const SECRET_INPUTS_PROPERTY = SECRET_INPUTS_KEY;
