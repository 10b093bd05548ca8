/**
 * The resolver against undici's MockAgent: the manifest request it sends
 * (HEAD, the four manifest types accepted), the Docker-Content-Digest answer,
 * the GET and the body's sha256 when that header is missing, digest-form
 * images without a request, one request per reference, aborts, the scheme
 * rule and the errors of a registry that cannot answer.
 */
import { createHash } from "node:crypto";
import { MockAgent } from "undici";
import type { MockCallHistoryLog } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { ImageDigestResolver } from "../../src/image-registry/digest-resolver";
import type { ImageDigestResolverOptions } from "../../src/image-registry/digest-resolver";
import { MANIFEST_MEDIA_TYPES } from "../../src/image-registry/manifest-digest";
import { ImageRegistryError } from "../../src/image-registry/registry-errors";
import { headersOf } from "./support/client-harness";

const INDEX_DIGEST = `sha256:${"1".repeat(64)}`;
const OTHER_DIGEST = `sha256:${"2".repeat(64)}`;
const MANIFEST_PATH = "/v2/acme/voice-bot/manifests/main";

let mockAgent: MockAgent;
let resolver: ImageDigestResolver;

function setUp(options: ImageDigestResolverOptions = {}): void {
  mockAgent = new MockAgent({ enableCallHistory: true });
  mockAgent.disableNetConnect();
  resolver = new ImageDigestResolver({ dockerConfigFile: false, dispatcher: mockAgent, ...options });
}

function calls(): MockCallHistoryLog[] {
  return mockAgent.getCallHistory()?.calls() ?? [];
}

async function rejection(promise: Promise<unknown>): Promise<ImageRegistryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImageRegistryError);
  return error as ImageRegistryError;
}

afterEach(async () => {
  await resolver.close();
  await mockAgent.close();
});

describe("the manifest request", () => {
  it("asks HEAD /v2/<name>/manifests/<tag> accepting the OCI index, OCI manifest, Docker list and Docker v2 types, and takes Docker-Content-Digest", async () => {
    setUp();
    mockAgent.get("https://registry.example.com").intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": INDEX_DIGEST } });
    const resolved = await resolver.resolve("registry.example.com/acme/voice-bot:main");
    expect(resolved).toMatchObject({ digest: INDEX_DIGEST, pinnedImage: `registry.example.com/acme/voice-bot@${INDEX_DIGEST}`, fromRegistry: true });
    const [call] = calls();
    expect(calls()).toHaveLength(1);
    expect(call?.method).toBe("HEAD");
    const accepted = headersOf(call!).accept?.split(",").map((type) => type.trim());
    expect(accepted).toEqual([
      "application/vnd.oci.image.index.v1+json",
      "application/vnd.oci.image.manifest.v1+json",
      "application/vnd.docker.distribution.manifest.list.v2+json",
      "application/vnd.docker.distribution.manifest.v2+json",
    ]);
    expect(accepted).toEqual([...MANIFEST_MEDIA_TYPES]);
    expect(headersOf(call!).authorization).toBeUndefined();
  });

  it("maps Docker Hub names to registry-1.docker.io/library/...:latest", async () => {
    setUp();
    mockAgent.get("https://registry-1.docker.io").intercept({ path: "/v2/library/nginx/manifests/latest", method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": INDEX_DIGEST } });
    expect((await resolver.resolve("nginx")).pinnedImage).toBe(`nginx@${INDEX_DIGEST}`);
  });

  it("without Docker-Content-Digest, GETs the manifest and takes the sha256 of its bytes", async () => {
    setUp();
    const manifest = '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[]}';
    const pool = mockAgent.get("https://registry.example.com");
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(200, "");
    pool.intercept({ path: MANIFEST_PATH, method: "GET" }).reply(200, manifest, { headers: { "content-type": "application/vnd.oci.image.index.v1+json" } });
    const resolved = await resolver.resolve("registry.example.com/acme/voice-bot:main");
    expect(resolved.digest).toBe(`sha256:${createHash("sha256").update(manifest).digest("hex")}`);
    expect(calls().map((c) => c.method)).toEqual(["HEAD", "GET"]);
    expect(headersOf(calls()[1]!).accept).toBe(MANIFEST_MEDIA_TYPES.join(", "));
  });

  it("answers a digest-form image with no request", async () => {
    setUp();
    const image = `registry.example.com/acme/voice-bot@${OTHER_DIGEST}`;
    expect(await resolver.resolve(image)).toMatchObject({ digest: OTHER_DIGEST, pinnedImage: image, fromRegistry: false });
    expect(calls()).toHaveLength(0);
  });
});

describe("one request per reference", () => {
  it("400 resolutions of one image, in any spelling, make one request; another tag makes its own", async () => {
    setUp();
    const pool = mockAgent.get("https://registry-1.docker.io");
    pool.intercept({ path: "/v2/library/nginx/manifests/latest", method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": INDEX_DIGEST } });
    pool.intercept({ path: "/v2/library/nginx/manifests/1.27", method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": OTHER_DIGEST } });
    const spellings = ["nginx", "nginx:latest", "docker.io/library/nginx", "index.docker.io/nginx:latest"];
    const results = await Promise.all(Array.from({ length: 400 }, (_, i) => resolver.resolve(spellings[i % spellings.length]!)));
    expect(new Set(results.map((r) => r.digest))).toEqual(new Set([INDEX_DIGEST]));
    expect(results[3]!.pinnedImage).toBe(`index.docker.io/nginx@${INDEX_DIGEST}`);
    expect((await resolver.resolve("nginx")).digest).toBe(INDEX_DIGEST);
    expect((await resolver.resolve("nginx:1.27")).digest).toBe(OTHER_DIGEST);
    expect(calls().map((c) => c.path)).toEqual(["/v2/library/nginx/manifests/latest", "/v2/library/nginx/manifests/1.27"]);
  });

  it("keeps a failure for the run too: 50 resolutions of a missing tag make one request, each rejected", async () => {
    setUp();
    mockAgent.get("https://registry.example.com").intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(404, "");
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => resolver.resolve("registry.example.com/acme/voice-bot:main")));
    expect(outcomes.every((o) => o.status === "rejected" && (o.reason as ImageRegistryError).kind === "not-found")).toBe(true);
    expect(calls()).toHaveLength(1);
  });
});

describe("aborts", () => {
  it("a caller's abort rejects that caller at once with the signal's reason; the request goes on while others wait", async () => {
    setUp();
    mockAgent.get("https://registry.example.com").intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": INDEX_DIGEST } }).delay(50);
    const first = new AbortController();
    const second = new AbortController();
    const aborted = resolver.resolve("registry.example.com/acme/voice-bot:main", first.signal);
    const kept = resolver.resolve("registry.example.com/acme/voice-bot:main", second.signal);
    first.abort(new Error("cancelled by the engine"));
    await expect(aborted).rejects.toThrow("cancelled by the engine");
    expect((await kept).digest).toBe(INDEX_DIGEST);
    expect(calls()).toHaveLength(1);
  });

  it("a caller without a signal keeps the request alive when every caller with one aborts", async () => {
    setUp();
    mockAgent.get("https://registry.example.com").intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": INDEX_DIGEST } }).delay(50);
    const controller = new AbortController();
    const kept = resolver.resolve("registry.example.com/acme/voice-bot:main");
    const aborted = resolver.resolve("registry.example.com/acme/voice-bot:main", controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(aborted).rejects.toThrow("cancelled");
    expect((await kept).digest).toBe(INDEX_DIGEST);
    expect((await resolver.resolve("registry.example.com/acme/voice-bot:main", new AbortController().signal)).digest).toBe(INDEX_DIGEST);
    expect(calls()).toHaveLength(1);
  });

  it("when every waiter aborts, the request is aborted and forgotten, so a later call asks again", async () => {
    setUp();
    const pool = mockAgent.get("https://registry.example.com");
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": OTHER_DIGEST } }).delay(5_000);
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": INDEX_DIGEST } });
    const controller = new AbortController();
    const aborted = resolver.resolve("registry.example.com/acme/voice-bot:main", controller.signal);
    controller.abort(new Error("interrupted"));
    await expect(aborted).rejects.toThrow("interrupted");
    expect((await resolver.resolve("registry.example.com/acme/voice-bot:main")).digest).toBe(INDEX_DIGEST);
    await expect(resolver.resolve("registry.example.com/acme/voice-bot:main", AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
  });
});

describe("the scheme", () => {
  it("asks a loopback registry over plain http, any other over https unless allowInsecureHttp names it", async () => {
    setUp({ allowInsecureHttp: ["registry.lan:5000"] });
    const answer = { headers: { "docker-content-digest": INDEX_DIGEST } };
    mockAgent.get("http://localhost:5000").intercept({ path: "/v2/bot/manifests/main", method: "HEAD" }).reply(200, "", answer);
    mockAgent.get("http://127.0.0.1:5000").intercept({ path: "/v2/bot/manifests/main", method: "HEAD" }).reply(200, "", answer);
    mockAgent.get("http://registry.lan:5000").intercept({ path: "/v2/bot/manifests/main", method: "HEAD" }).reply(200, "", answer);
    mockAgent.get("https://other.lan:5000").intercept({ path: "/v2/bot/manifests/main", method: "HEAD" }).reply(200, "", answer);
    for (const host of ["localhost:5000", "127.0.0.1:5000", "registry.lan:5000", "other.lan:5000"]) {
      expect((await resolver.resolve(`${host}/bot:main`)).digest).toBe(INDEX_DIGEST);
    }
    expect(calls().map((c) => c.origin)).toEqual(["http://localhost:5000", "http://127.0.0.1:5000", "http://registry.lan:5000", "https://other.lan:5000"]);
  });

  it("allowInsecureHttp: true asks every registry over http", async () => {
    setUp({ allowInsecureHttp: true });
    mockAgent.get("http://registry.example.com").intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": INDEX_DIGEST } });
    expect((await resolver.resolve("registry.example.com/acme/voice-bot:main")).digest).toBe(INDEX_DIGEST);
  });
});

describe("errors", () => {
  const image = "registry.example.com/acme/voice-bot:main";

  it("a missing tag names the registry, repository, tag, status and the fixes", async () => {
    setUp();
    mockAgent.get("https://registry.example.com").intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(404, "");
    const error = await rejection(resolver.resolve(image));
    expect(error).toMatchObject({ kind: "not-found", registry: "registry.example.com", repository: "acme/voice-bot", tag: "main", status: 404 });
    expect(error.message).toBe(
      "registry registry.example.com, repository acme/voice-bot, tag main: the registry has no such tag (HTTP 404); push the image, or correct the image's tag, " +
        "or set pinImageDigest: false on the agent (or `pulumi config set agent-hosting:pinImageDigests false` for the whole stack) to send the image as written, unresolved",
    );
  });

  it("the GET's error code joins the status", async () => {
    setUp();
    const pool = mockAgent.get("https://registry.example.com");
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(200, "");
    pool.intercept({ path: MANIFEST_PATH, method: "GET" }).reply(404, '{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}');
    expect((await rejection(resolver.resolve(image))).message).toContain("(HTTP 404 MANIFEST_UNKNOWN)");
  });

  it("an unreachable registry names the host, the error code and the fixes", async () => {
    setUp();
    mockAgent.get("https://registry.example.com").intercept({ path: MANIFEST_PATH, method: "HEAD" }).replyWithError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    const error = await rejection(resolver.resolve(image));
    expect(error.kind).toBe("unreachable");
    expect(error.message).toMatch(/^cannot reach registry\.example\.com \(ECONNREFUSED\) to resolve the digest of registry registry\.example\.com, repository acme\/voice-bot, tag main: .*pinImageDigest: false/);
  });

  it.each([
    [500, {}, "did not give the manifest (HTTP 500)"],
    [429, {}, "did not give the manifest (HTTP 429)"],
    [200, { "docker-content-digest": "sha256:short" }, "sent a Docker-Content-Digest that is not a digest (HTTP 200)"],
  ])("an answer of %i %j is an error naming the status", async (status, headers, text) => {
    setUp();
    mockAgent.get("https://registry.example.com").intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(status, "", { headers });
    const error = await rejection(resolver.resolve(image));
    expect(error).toMatchObject({ kind: "registry-answer", status });
    expect(error.message).toContain(text);
    expect(error.message).toContain("pinImageDigest: false");
  });

  it("an invalid image is refused before any request", async () => {
    setUp();
    expect((await rejection(resolver.resolve("acme/Voice Bot"))).kind).toBe("invalid-reference");
    expect(calls()).toHaveLength(0);
  });
});
