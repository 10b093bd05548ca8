/**
 * The resolver against the real distribution registry, anonymous: a tag
 * resolves to the digest crane reads; a moved tag resolves to the new build;
 * a multi-arch image to its index's digest; the GET path when the registry's
 * answer has no Docker-Content-Digest; 400 resolutions of one image make one
 * request; a digest-form image makes none; and a missing tag or an
 * unreachable registry fail with errors naming the fix.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageDigestResolver } from "../../src/image-registry";
import type { ImageRegistryError } from "../../src/image-registry";
import { closedPort } from "../support/closed-port";
import { startImageRegistry } from "../support/image-registry-fixture";
import type { RunningImageRegistry } from "../support/image-registry-fixture";

let registry: RunningImageRegistry;
const resolvers: ImageDigestResolver[] = [];

/** A new resolver, as each run (preview, up) has; none reads the machine's docker config. */
function newResolver(): ImageDigestResolver {
  const resolver = new ImageDigestResolver({ dockerConfigFile: false });
  resolvers.push(resolver);
  return resolver;
}

async function failure(promise: Promise<unknown>): Promise<ImageRegistryError> {
  return (await promise.then(
    () => expect.unreachable("the resolution succeeded"),
    (error: unknown) => error,
  )) as ImageRegistryError;
}

beforeAll(async () => {
  registry = await startImageRegistry({ auth: "anonymous" });
});

afterAll(async () => {
  await Promise.all(resolvers.map((r) => r.close()));
  await registry?.close();
});

describe("tags", () => {
  it("a tag resolves to the digest crane reads, and the pinned image names it", async () => {
    const digest = await registry.pushImage("acme/voice-bot", "main");
    const resolved = await newResolver().resolve(`${registry.host}/acme/voice-bot:main`);
    expect(resolved).toMatchObject({ digest, pinnedImage: `${registry.host}/acme/voice-bot@${digest}`, fromRegistry: true });
    expect(digest).toMatch(/^sha256:[a-f0-9]{64}$/);
  });

  it("a moved tag resolves to the new build in the next run; within a run the first answer stands", async () => {
    const first = await registry.pushImage("acme/moving", "main");
    const run = newResolver();
    expect((await run.resolve(`${registry.host}/acme/moving:main`)).digest).toBe(first);
    const second = await registry.pushImage("acme/moving", "main");
    expect(second).not.toBe(first);
    expect((await newResolver().resolve(`${registry.host}/acme/moving:main`)).digest).toBe(second);
    expect((await run.resolve(`${registry.host}/acme/moving:main`)).digest).toBe(first);
  });

  it("re-tagging with crane tag moves the tag to the other build", async () => {
    const stable = await registry.pushImage("acme/retag", "v1");
    const candidate = await registry.pushImage("acme/retag", "v2");
    await registry.retag("acme/retag", "v1", "prod");
    expect((await newResolver().resolve(`${registry.host}/acme/retag:prod`)).digest).toBe(stable);
    await registry.retag("acme/retag", "v2", "prod");
    expect((await newResolver().resolve(`${registry.host}/acme/retag:prod`)).digest).toBe(candidate);
  });

  it("a multi-arch image resolves to its index's digest, not a platform's", async () => {
    const arm = await registry.pushImage("acme/multi", "arm64", "linux/arm64");
    const amd = await registry.pushImage("acme/multi", "amd64", "linux/amd64");
    const index = await registry.pushIndex("acme/multi", "main", ["acme/multi:arm64", "acme/multi:amd64"]);
    expect(await registry.mediaType("acme/multi", "main")).toBe("application/vnd.oci.image.index.v1+json");
    const resolved = await newResolver().resolve(`${registry.host}/acme/multi:main`);
    expect(resolved.digest).toBe(index);
    expect([arm, amd]).not.toContain(resolved.digest);
  });

  it("without Docker-Content-Digest in the answers, a GET and the sha256 of its body give the same digest", async () => {
    const digest = await registry.pushImage("acme/no-header", "main");
    const proxy = await registry.proxy({ withoutDigestHeader: true });
    expect((await newResolver().resolve(`${proxy.host}/acme/no-header:main`)).digest).toBe(digest);
    expect(proxy.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["HEAD /v2/acme/no-header/manifests/main", "GET /v2/acme/no-header/manifests/main"]);
  });
});

describe("requests", () => {
  it("400 resolutions of one image make one request; a digest-form image makes none", async () => {
    const digest = await registry.pushImage("acme/fleet", "main");
    const proxy = await registry.proxy();
    const resolver = newResolver();
    const results = await Promise.all(Array.from({ length: 400 }, () => resolver.resolve(`${proxy.host}/acme/fleet:main`)));
    expect(new Set(results.map((r) => r.digest))).toEqual(new Set([digest]));
    expect(proxy.requests).toEqual([{ method: "HEAD", path: "/v2/acme/fleet/manifests/main", authorization: "none" }]);
    expect((await resolver.resolve(`${proxy.host}/acme/fleet@${digest}`)).fromRegistry).toBe(false);
    expect(proxy.requests).toHaveLength(1);
  });
});

describe("refusals", () => {
  it("a tag that does not exist fails naming the registry, repository, tag, 404 and the fixes", async () => {
    await registry.pushImage("acme/voice-bot", "main");
    const error = await failure(newResolver().resolve(`${registry.host}/acme/voice-bot:nightly`));
    expect(error).toMatchObject({ kind: "not-found", registry: registry.host, repository: "acme/voice-bot", tag: "nightly", status: 404 });
    expect(error.message).toContain(`registry ${registry.host}, repository acme/voice-bot, tag nightly: the registry has no such tag (HTTP 404)`);
    expect(error.message).toContain("pinImageDigest: false");
  });

  it("an unreachable registry fails naming the host, the connection error and the fixes", async () => {
    const port = await closedPort();
    const error = await failure(newResolver().resolve(`127.0.0.1:${port}/acme/voice-bot:main`));
    expect(error.kind).toBe("unreachable");
    expect(error.message).toContain(`cannot reach 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(error.message).toContain("pinImageDigest: false");
  });

  it("a registry not named as loopback is asked over https, and over plain http only when allowInsecureHttp names it", async () => {
    await registry.pushImage("acme/scheme", "main");
    // 0.0.0.0 reaches this machine's listener, but it is not a loopback name, so the plain-http registry gets a TLS handshake.
    const host = `0.0.0.0:${registry.host.split(":")[1]}`;
    const error = await failure(newResolver().resolve(`${host}/acme/scheme:main`));
    expect(error.kind).toBe("unreachable");
    expect(error.message).toContain(`cannot reach ${host} (ERR_SSL_WRONG_VERSION_NUMBER)`);
    expect(error.message).toContain(`if it serves plain http, name ${host} in allowInsecureHttp`);
    const allowed = new ImageDigestResolver({ dockerConfigFile: false, allowInsecureHttp: [host] });
    resolvers.push(allowed);
    expect((await allowed.resolve(`${host}/acme/scheme:main`)).digest).toBe(await registry.digest("acme/scheme", "main"));
  });
});
