/**
 * A container image reference read as `docker pull` reads it
 * (github.com/distribution/reference's ParseNormalizedNamed): the first path
 * component is the registry when it has a dot or a colon, is `localhost`, or
 * has an upper-case letter; otherwise the image is on Docker Hub, whose
 * one-component names live under `library/`. No tag and no digest means
 * `latest`. Docker Hub's names (`docker.io`, `index.docker.io`) are served
 * by `registry-1.docker.io`.
 */
import { splitReference } from "./reference-parts";
import { ImageRegistryError } from "./registry-errors";

export const DOCKER_HUB = "docker.io";
const DOCKER_HUB_API_HOST = "registry-1.docker.io";
const DOCKER_HUB_ALIASES = new Set([DOCKER_HUB, "index.docker.io", DOCKER_HUB_API_HOST]);

export interface ImageReference {
  /** The image as the caller wrote it. */
  image: string;
  /** The registry's name as users log in to it: `docker.io`, `ghcr.io`, `localhost:5000`. */
  registry: string;
  /** The host (and port) the distribution API is asked at. */
  apiHost: string;
  /** The repository inside the registry: `library/nginx`, `acme/voice-bot`. */
  repository: string;
  /** The tag, `latest` when the image names neither tag nor digest; absent in digest form. */
  tag?: string;
  /** The digest the image names (`sha256:…`), in digest form. */
  digest?: string;
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^(?:sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]+)?$/;

/** Whether `value` is a digest the resolver gives back: `sha256:` and 64 hex digits (or sha512 and 128). */
export function isDigest(value: string): boolean {
  return DIGEST.test(value);
}

function invalid(image: string, why: string): ImageRegistryError {
  return new ImageRegistryError(`image "${image}" is not a valid image reference: ${why}`, { kind: "invalid-reference" });
}

/** Splits the first path component off as the registry when Docker would read it as one. */
function splitRegistry(name: string): { registry: string; path: string } {
  const slash = name.indexOf("/");
  const first = slash === -1 ? "" : name.slice(0, slash);
  const isHost = slash !== -1 && (first.includes(".") || first.includes(":") || first === "localhost" || first !== first.toLowerCase());
  if (!isHost) return { registry: DOCKER_HUB, path: name };
  const registry = DOCKER_HUB_ALIASES.has(first.toLowerCase()) ? DOCKER_HUB : first;
  return { registry, path: name.slice(slash + 1) };
}

/** Parses `image`, or throws an ImageRegistryError of kind "invalid-reference" naming what is wrong. */
export function parseImageReference(image: string): ImageReference {
  if (image === "" || /\s/.test(image)) throw invalid(image, "it is empty or holds whitespace");
  const { name: rest, tag, digest } = splitReference(image);
  if (digest !== undefined && !isDigest(digest)) throw invalid(image, `"${digest}" is not a digest (sha256: and 64 lower-case hex digits)`);
  if (tag !== undefined && !TAG.test(tag)) {
    throw invalid(image, `"${tag}" is not a tag (letters, digits, _ . -, at most 128, not starting with . or -)`);
  }
  const { registry, path } = splitRegistry(rest);
  if (registry !== DOCKER_HUB && !HOST.test(registry)) throw invalid(image, `"${registry}" is not a registry host`);
  const repository = registry === DOCKER_HUB && !path.includes("/") ? `library/${path}` : path;
  const bad = repository.split("/").find((component) => !COMPONENT.test(component));
  if (bad !== undefined) {
    throw invalid(image, `the repository component "${bad}" must be lower-case letters and digits, separated by . _ __ or -`);
  }
  const reference: ImageReference = { image, registry, apiHost: registry === DOCKER_HUB ? DOCKER_HUB_API_HOST : registry, repository };
  if (digest !== undefined) reference.digest = digest;
  // A digest-form image keeps the tag it names, if any, for messages; it is never resolved.
  if (tag !== undefined || digest === undefined) reference.tag = tag ?? "latest";
  return reference;
}

/** `registry/repository:tag` (or `@digest`), the reference's one spelling, used as the resolver's cache key and in messages. */
export function canonicalName(reference: ImageReference): string {
  const name = `${reference.registry}/${reference.repository}`;
  return reference.digest !== undefined ? `${name}@${reference.digest}` : `${name}:${reference.tag ?? "latest"}`;
}
