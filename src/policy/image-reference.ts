/**
 * The parts of a container image reference the policy rules read:
 * `[registry/]repository[:tag][@digest]`. The registry is the first path
 * segment when it names a host (has a dot or a port, or is `localhost`), as
 * Docker reads a reference.
 */
import { splitReference } from "../image-registry/reference-parts";

export interface ImageReference {
  /** The registry host, or undefined for Docker Hub's default. */
  registry?: string;
  /** Everything before the tag and digest, registry included. */
  repository: string;
  tag?: string;
  digest?: string;
}

export function parseImageReference(image: string): ImageReference {
  const { name: rest, tag, digest } = splitReference(image);
  const first = rest.split("/", 1)[0] ?? "";
  const hasHost = rest.includes("/") && (first.includes(".") || first.includes(":") || first === "localhost");
  const reference: ImageReference = { repository: rest };
  if (hasHost) reference.registry = first;
  if (tag !== undefined) reference.tag = tag;
  if (digest !== undefined) reference.digest = digest;
  return reference;
}

/**
 * Whether the image comes from one of `registries`: each entry is a host
 * (`registry.example.com`, `localhost:5000`) or a host and path prefix
 * (`ghcr.io/acme`), compared case-insensitively on whole path segments.
 */
export function fromRegistry(image: string, registries: readonly string[]): string | undefined {
  const { registry, repository } = parseImageReference(image);
  if (registry === undefined) return undefined;
  const name = repository.toLowerCase();
  return registries.find((entry) => {
    const prefix = entry.trim().replace(/\/+$/, "").toLowerCase();
    return prefix !== "" && (name === prefix || name.startsWith(`${prefix}/`));
  });
}
