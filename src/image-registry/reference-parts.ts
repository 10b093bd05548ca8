/**
 * The three parts of an image reference, `name[:tag][@digest]`, split as
 * Docker splits them and checked for nothing: a tag is a colon after the last
 * slash (a colon before it belongs to the registry's port), a digest follows
 * the `@`. The resolver (oci-reference.ts) and the policy pack's rules
 * (src/policy/image-reference.ts) both read a reference through it, and
 * the Agent names its pinned image (`name@sha256:…`) and reads it back
 * with it.
 */
export interface ReferenceParts {
  /** Everything before the tag and the digest, registry included. */
  name: string;
  tag?: string;
  digest?: string;
}

export function splitReference(image: string): ReferenceParts {
  let name = image;
  const parts: ReferenceParts = { name };
  const at = name.indexOf("@");
  if (at !== -1) {
    parts.digest = name.slice(at + 1);
    name = name.slice(0, at);
  }
  const colon = name.indexOf(":", name.lastIndexOf("/") + 1);
  if (colon !== -1) {
    parts.tag = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  parts.name = name;
  return parts;
}

/** The image's name as written, without its tag and digest. */
export function imageName(image: string): string {
  return splitReference(image).name;
}

/** `name@digest`: the image pinned to a digest, its name kept as written. */
export function pinImage(image: string, digest: string): string {
  return `${imageName(image)}@${digest}`;
}

/** Whether the image names a tag (or nothing), not a digest. */
export function isTagForm(image: string): boolean {
  return splitReference(image).digest === undefined;
}

/**
 * The image as declared, read back from the one a service reports:
 * `name@sha256:…` of a declared tag-form image of that name is the declared
 * image, pinned to that digest; anything else is as reported.
 */
export function readBackReference(reported: unknown, declared: unknown): { image: unknown; digest?: string } {
  if (typeof reported !== "string" || typeof declared !== "string") return { image: reported };
  const live = splitReference(reported);
  const wanted = splitReference(declared);
  if (live.digest === undefined || live.tag !== undefined || wanted.digest !== undefined || live.name !== wanted.name) return { image: reported };
  return { image: declared, digest: live.digest };
}
