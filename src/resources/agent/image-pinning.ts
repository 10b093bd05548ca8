/**
 * The Agent's image pinning (the registry's side is src/image-registry).
 * Pinning is on by default, so that a tag pushed again is a change the
 * preview shows and the service runs exactly the build that was previewed.
 *
 * At check, a tag-form image of an agent that pins (its `pinImageDigest`,
 * else the stack's agent-hosting:pinImageDigests) is resolved to the digest
 * its tag names now; the checked inputs carry it as `imageDigest`. Diff
 * compares it with the digest the state recorded (the outputs', else the
 * previous inputs', which a step without changes records alone): another
 * digest is an update naming both; none recorded (a state written before
 * pinning) is no change, and the first `up` records it. Create and update
 * send `name@sha256:…`; the service reports that image back, which the
 * outputs and a refresh read as the declared tag plus `imageDigest`, so
 * nothing drifts.
 */
import type { RuleFailure } from "../../client/field-rules";
import { UNKNOWN_VALUE } from "../../core/engine-sentinels";
import type { ImageDigestLookup } from "../../core/image-digest-lookup";
import type { Props } from "../../core/resource-entry";
import { pinImage, splitReference } from "../../image-registry/reference-parts";
import { ImageRegistryError, UNPINNED_FIX } from "../../image-registry/registry-errors";
import type { AgentInputs } from "./inputs-outputs";

/** The checked input and the output that carry the digest. */
export const IMAGE_DIGEST = "imageDigest";

const isTagForm = (image: string): boolean => splitReference(image).digest === undefined;

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
export async function pinCheckedImage(inputs: Props, lookup: ImageDigestLookup | undefined, secretInputs: readonly string[]): Promise<RuleFailure[]> {
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

/** The digest checked inputs carry, when they pin. */
export function checkedDigest(inputs: AgentInputs | Props): string | undefined {
  const digest = (inputs as Props)[IMAGE_DIGEST];
  return typeof digest === "string" && digest !== UNKNOWN_VALUE ? digest : undefined;
}

/** The image the service is sent: `name@sha256:…` when the inputs pin a tag-form image, else as declared. */
export function sentImage(inputs: AgentInputs): string {
  const digest = checkedDigest(inputs);
  return digest !== undefined && isTagForm(inputs.image) ? pinImage(inputs.image, digest) : inputs.image;
}

/**
 * The image as the state records it, read back from the one the service
 * reports: `name@sha256:…` of a declared tag-form image of that name is the
 * declared image, pinned to that digest; anything else is as reported.
 */
export function readBackImage(reported: unknown, declared: unknown): { image: unknown; digest?: string } {
  if (typeof reported !== "string" || typeof declared !== "string") return { image: reported };
  const live = splitReference(reported);
  const wanted = splitReference(declared);
  if (live.digest === undefined || live.tag !== undefined || wanted.digest !== undefined || live.name !== wanted.name) return { image: reported };
  return { image: declared, digest: live.digest };
}

/** What diff compares of the image: whether the image changed, and whether its tag moved to another digest. */
export interface ImageComparison {
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
export function compareImages(recordedImage: unknown, recordedDigest: string | undefined, news: Props): ImageComparison {
  const image = news["image"];
  const digest = news[IMAGE_DIGEST];
  const { image: readBack, digest: fromImage } = readBackImage(recordedImage, image);
  const before = recordedDigest ?? fromImage;
  const imageChanged = image === UNKNOWN_VALUE || readBack !== image;
  const digestMoved = !imageChanged && typeof digest === "string" && before !== undefined && digest !== before;
  return before === undefined ? { imageChanged, digestMoved } : { imageChanged, digestMoved, before };
}
