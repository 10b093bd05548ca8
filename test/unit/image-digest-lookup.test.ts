/**
 * The provider instance's image digest lookup made from the settings
 * (src/image-registry/run-lookup.ts over src/core/settings.ts): the stack's
 * pinning default and its environment fallback, registryAuth's mistakes
 * named by the setting they came from without repeating a value, and a
 * digest-form image answered without a registry. No request is made here:
 * the registry side is test/unit/image-registry-*.test.ts and test/integration.
 */
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/client/errors";
import type { ConfigSource } from "../../src/core/settings";
import { imageDigestLookup } from "../../src/image-registry/run-lookup";

const configOf = (values: Record<string, string>): ConfigSource => ({ get: (key) => values[key] });
const DIGEST = `sha256:${"a".repeat(64)}`;

describe("the pinning default", () => {
  it("is true unless the stack config or the environment says otherwise, the stack config first", () => {
    expect(imageDigestLookup(undefined, {}).pinByDefault).toBe(true);
    expect(imageDigestLookup(undefined, { AGENT_HOSTING_PIN_IMAGE_DIGESTS: "false" }).pinByDefault).toBe(false);
    expect(imageDigestLookup(configOf({ "agent-hosting:pinImageDigests": "true" }), { AGENT_HOSTING_PIN_IMAGE_DIGESTS: "false" }).pinByDefault).toBe(true);
    expect(imageDigestLookup(configOf({ "agent-hosting:pinImageDigests": "FALSE" }), {}).pinByDefault).toBe(false);
  });

  it("refuses a value that is not true or false, naming where it came from", () => {
    expect(() => imageDigestLookup(configOf({ "agent-hosting:pinImageDigests": "yes" }), {}).pinByDefault).toThrow(
      new ConfigurationError('agent-hosting:pinImageDigests: must be true or false, got "yes"'),
    );
    expect(() => imageDigestLookup(undefined, { AGENT_HOSTING_PIN_IMAGE_DIGESTS: "1" }).pinByDefault).toThrow(/^AGENT_HOSTING_PIN_IMAGE_DIGESTS: must be true or false/);
  });
});

describe("registryAuth", () => {
  it("a malformed entry fails the first resolve, naming the setting, the entry and the field, never a value", async () => {
    const lookup = imageDigestLookup(configOf({ "agent-hosting:registryAuth": '[{"server": "ghcr.io", "username": "SECRET-user-1c"}]' }), {});
    const error = await lookup.resolve("ghcr.io/acme/bot:main").then(
      () => expect.unreachable("resolved"),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/^agent-hosting:registryAuth: entry 0 has no password \(a non-empty string\)/);
    expect(error.message).not.toContain("SECRET-user-1c");
    await lookup.close();
  });

  it("from the environment, the error names the variable", async () => {
    const lookup = imageDigestLookup(undefined, { AGENT_HOSTING_REGISTRY_AUTH: "not json SECRET-pw-77" });
    const error = await lookup.resolve("ghcr.io/acme/bot:main").then(
      () => expect.unreachable("resolved"),
      (e: unknown) => e as Error,
    );
    expect(error.message).toMatch(/^AGENT_HOSTING_REGISTRY_AUTH: is not JSON; expected a list such as .*, as the value of AGENT_HOSTING_REGISTRY_AUTH$/);
    expect(error.message).not.toContain("SECRET-pw-77");
    await lookup.close();
  });
});

it("a digest-form image is answered as written, without a registry", async () => {
  const lookup = imageDigestLookup(undefined, {});
  const image = `registry.invalid/acme/bot@${DIGEST}`;
  expect(await lookup.resolve(image)).toEqual({ image, digest: DIGEST, pinnedImage: image });
  await lookup.close();
});
