/**
 * The three parts of an image reference, `name[:tag][@digest]`, split as
 * Docker splits them and checked for nothing: a tag is a colon after the last
 * slash (a colon before it belongs to the registry's port), a digest follows
 * the `@`. The resolver (oci-reference.ts) and the policy pack's rules
 * (src/policy/image-reference.ts) both read a reference through it, and
 * the Agent names its pinned image (`name@sha256:…`) with it.
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
