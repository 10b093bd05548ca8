/**
 * The image digests under the mocks, in place of a registry: a tag-form
 * image names the digest the test gives for it, else one derived from the
 * image as written (`sha256:` and the SHA-256 of its text), so the same
 * program pins the same digests in every run and a test can assert them.
 * Whether an agent that leaves `pinImageDigest` out pins is the options'
 * `pinImageDigests`, true when left out, as the stack's
 * agent-hosting:pinImageDigests is.
 */
import { createHash } from "node:crypto";
import type { ImageDigestLookup } from "../core/image-digest-lookup";
import { pinImage, splitReference } from "../image-registry/reference-parts";
import type { AgentHostingMocksOptions } from "./options";

/** The digest the mocks give an image the test names no digest for. */
export function derivedDigest(image: string): string {
  return `sha256:${createHash("sha256").update(image).digest("hex")}`;
}

export function mockImageDigests(options: AgentHostingMocksOptions): ImageDigestLookup {
  const given = options.imageDigests ?? {};
  return {
    pinByDefault: options.pinImageDigests ?? true,
    async resolve(image) {
      // A digest-form image names its own digest, as a registry answers it.
      const own = splitReference(image).digest;
      const digest = own ?? (Object.prototype.hasOwnProperty.call(given, image) ? (given[image] as string) : derivedDigest(image));
      return { image, digest, pinnedImage: pinImage(image, digest) };
    },
  };
}
