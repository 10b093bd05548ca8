/**
 * A new build behind the same image: an Agent whose tag-form `image` is
 * unchanged while the digest its tag names (`imageDigest`) moved. The
 * provider's check resolves the tag and carries the digest among the checked
 * inputs; the state keeps the digest it deployed among the outputs. A digest
 * on one side only (a state written before pinning, or pinning turned off) is
 * no new build, and neither is a digest hidden as a secret or not yet known.
 */
import type { PreviewState } from "./preview";
import { propertyValue, sameValue } from "./property-value";
import type { PropertyValue } from "./property-value";
import { formatValue, inlineCode } from "./markdown-text";
import { secretPropertyNames } from "./secrets";

export const IMAGE_DIGEST = "imageDigest";

export interface NewBuild {
  /** The image as the program writes it (its tag form). */
  image: PropertyValue;
  /** The digest deployed before (`sha256:…`). */
  before: string;
  /** The digest the tag names now. */
  after: string;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

function digestIn(value: unknown): string | undefined {
  return typeof value === "string" && DIGEST.test(value) ? value : undefined;
}

/** The digest a state records as deployed: its outputs first (what the last up sent), then its checked inputs. */
export function deployedDigest(state: PreviewState | undefined): string | undefined {
  return digestIn(state?.outputs?.[IMAGE_DIGEST]) ?? digestIn(state?.inputs?.[IMAGE_DIGEST]);
}

/** The digest the tag names now: the checked inputs the preview planned with. */
export function plannedDigest(state: PreviewState | undefined): string | undefined {
  return digestIn(state?.inputs?.[IMAGE_DIGEST]);
}

/** `sha256:0123456789ab`: a digest cut to its first 12 hex characters, as `docker images` shows an ID. */
export function shortDigest(digest: string): string {
  const [algorithm, hex = ""] = digest.split(":", 2);
  return `${algorithm}:${hex.slice(0, 12)}`;
}

/**
 * The new build between what `deployed` runs and what `planned` declares, or
 * undefined when the digest did not move (or is missing on either side), or
 * when the program changes the image itself (the image's own line shows that).
 */
export function newBuild(deployed: PreviewState | undefined, planned: PreviewState | undefined): NewBuild | undefined {
  const before = deployedDigest(deployed);
  const after = plannedDigest(planned);
  if (before === undefined || after === undefined || before === after) return undefined;
  const secret = secretPropertyNames([deployed, planned]);
  const image = propertyValue(planned?.inputs?.["image"], secret.has("image"));
  const imageBefore = propertyValue(deployed?.inputs?.["image"], secret.has("image"));
  if (imageBefore.kind === "value" && !sameValue(imageBefore, image)) return undefined;
  return { image, before, after };
}

/** "new build of `registry.example.com/voice-bot:main`: `sha256:aaaaaaaaaaaa` → `sha256:bbbbbbbbbbbb`" */
export function newBuildText(build: NewBuild): string {
  return `new build of ${formatValue(build.image)}: ${inlineCode(shortDigest(build.before))} → ${inlineCode(shortDigest(build.after))}`;
}
