/**
 * getImageDigest's registration as the hosts call it (src/functions/handlers.ts
 * through the registry): bad arguments are failures naming the argument,
 * before any lookup; a malformed image is a failure naming `image`; a
 * registry's refusal is the lookup's error, unchanged; the answer is the
 * image, its digest and the pinned image. The lookup is a stand-in that
 * records what it is asked.
 */
import { describe, expect, it } from "vitest";
import type { FunctionContext } from "../../src/core/resource-entry";
import { ImageRegistryError } from "../../src/image-registry";
import { REGISTRY } from "../../src/registry";

const DIGEST = `sha256:${"c3".repeat(32)}`;
const entry = REGISTRY.functions.find((f) => f.name === "getImageDigest");

function lookup(answer: (image: string) => Promise<{ image: string; digest: string; pinnedImage: string }>): FunctionContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    imageDigests: {
      resolve: (image) => {
        asked.push(image);
        return answer(image);
      },
    },
  };
}

const pinned = (image: string) => Promise.resolve({ image, digest: DIGEST, pinnedImage: `${image.split(":")[0]}@${DIGEST}` });

describe("getImageDigest's registration", () => {
  it("is registered with a registry handler, token agent-hosting:index:getImageDigest", () => {
    expect(entry?.token).toBe("agent-hosting:index:getImageDigest");
    expect(entry?.registryHandler).toBeTypeOf("function");
  });

  it("answers the image, its digest and the pinned image", async () => {
    const context = lookup(pinned);
    const outcome = await entry?.registryHandler?.({ image: "ghcr.io/acme/bot:main" }, context);
    expect(outcome).toEqual({ result: { image: "ghcr.io/acme/bot:main", digest: DIGEST, pinnedImage: `ghcr.io/acme/bot@${DIGEST}` }, failures: [] });
    expect(context.asked).toEqual(["ghcr.io/acme/bot:main"]);
  });

  it("a missing or unknown argument is a failure naming it, and nothing is asked", async () => {
    const context = lookup(pinned);
    expect(await entry?.registryHandler?.({}, context)).toEqual({ failures: [{ property: "image", reason: "is required and must be a non-empty string" }] });
    expect(await entry?.registryHandler?.({ image: "bot:1", tag: "x" }, context)).toEqual({
      failures: [{ property: "tag", reason: "is not an argument of this function; the arguments are image" }],
    });
    expect(context.asked).toEqual([]);
  });

  it("a malformed image is a failure naming image; a registry's refusal is the lookup's error", async () => {
    const malformed = lookup(() => Promise.reject(new ImageRegistryError('image "Bad Image" is not a valid image reference: spaces', { kind: "invalid-reference" })));
    expect(await entry?.registryHandler?.({ image: "Bad Image" }, malformed)).toEqual({
      failures: [{ property: "image", reason: 'image "Bad Image" is not a valid image reference: spaces' }],
    });
    const refusal = new ImageRegistryError("registry ghcr.io answered 401", { kind: "credentials-missing", status: 401 });
    const refused = lookup(() => Promise.reject(refusal));
    await expect(entry?.registryHandler?.({ image: "ghcr.io/acme/bot:main" }, refused)).rejects.toBe(refusal);
  });

  it("the plain handler answers the same when given the lookup, and says so without one", async () => {
    const context = lookup(pinned);
    const client = undefined as never;
    expect(await entry?.handler({ image: "bot:1" }, client, context)).toEqual({ result: { image: "bot:1", digest: DIGEST, pinnedImage: `bot@${DIGEST}` }, failures: [] });
    await expect(entry?.handler({ image: "bot:1" }, client)).rejects.toThrow("this provider answers no image digests");
  });
});
