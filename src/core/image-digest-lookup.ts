/**
 * What a check asks to pin an image: whether an agent that does not say pins
 * (the stack's agent-hosting:pinImageDigests) and the digest a tag-form image
 * names now. One lookup serves a provider instance (a run), so the agents
 * that share an image make one registry request (src/image-registry/run-lookup.ts
 * makes it from the settings).
 */

/** A tag-form image resolved: its digest, and the image as the service is sent it (`name@sha256:…`). */
export interface PinnedImage {
  /** The image as written. */
  image: string;
  digest: string;
  pinnedImage: string;
}

export interface ImageDigestLookup {
  /** Whether an agent without `pinImageDigest` pins its image; reading it checks the setting (a ConfigurationError names it). */
  readonly pinByDefault: boolean;
  /** The digest `image` names now; rejects with an ImageRegistryError naming the registry, repository, tag, status and fix. */
  resolve(image: string, signal?: AbortSignal): Promise<PinnedImage>;
}
