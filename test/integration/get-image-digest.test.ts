/**
 * The package root's getImageDigest and getImageDigestOutput, as a program
 * calls them (the package loaded from dist/ with Node's own require, under
 * pulumi.runtime.setMocks), against the real distribution registry with
 * htpasswd `Basic` auth: refused with an error naming the registry,
 * repository, tag, status and fix while no credential is configured; the
 * digest crane reads once agent-hosting:registryAuth names the registry's
 * user; a digest-form image answered as written, without a request. The
 * password is in no answer and no error.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImageRegistry } from "../support/image-registry-fixture";
import type { RunningImageRegistry } from "../support/image-registry-fixture";

const load = createRequire(__filename);
const pulumi = load("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
const ah = load("../../dist/index.js") as typeof import("../../src/index");
const { REGISTRY_AUTH_ENV } = load("../../dist/core/settings.js") as typeof import("../../src/core/settings");

let registry: RunningImageRegistry;
let image: string;
let digest: string;
let emptyDockerConfig: string;
const saved = { dockerConfig: process.env["DOCKER_CONFIG"], registryAuth: process.env[REGISTRY_AUTH_ENV] };

function resolved<T>(output: import("@pulumi/pulumi").Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

beforeAll(async () => {
  registry = await startImageRegistry({ auth: "basic" });
  digest = await registry.pushImage("voice-bot", "main");
  image = `${registry.host}/voice-bot:main`;
  // No docker login on this machine counts: an empty docker config directory.
  emptyDockerConfig = mkdtempSync(join(tmpdir(), "get-image-digest-docker-"));
  process.env["DOCKER_CONFIG"] = emptyDockerConfig;
  delete process.env[REGISTRY_AUTH_ENV];
  await pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs }, "project", "stack", false);
}, 300_000);

afterAll(async () => {
  for (const [name, value] of [["DOCKER_CONFIG", saved.dockerConfig], [REGISTRY_AUTH_ENV, saved.registryAuth]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(emptyDockerConfig, { recursive: true, force: true });
  await registry?.close();
});

describe("getImageDigest against a registry that asks for Basic credentials", () => {
  it("without credentials: one line naming the registry, repository, tag, 401 and the fixes; no password", async () => {
    const error = await ah.getImageDigest({ image }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(ah.ProgramCallError);
    const message = error?.message ?? "";
    expect(message).toContain(`agent-hosting: getImageDigest("${image}")`);
    for (const part of [registry.host, "voice-bot", "main", "401", "docker login", "agent-hosting:registryAuth", "pinImageDigest: false"]) {
      expect(message).toContain(part);
    }
    expect(message).not.toContain(registry.password);
  });

  it("with agent-hosting:registryAuth naming the registry's user: the digest crane reads, in both forms", async () => {
    process.env[REGISTRY_AUTH_ENV] = JSON.stringify([{ server: registry.host, username: registry.username, password: registry.password }]);
    try {
      const answer = await ah.getImageDigest({ image });
      expect(answer).toEqual({ image, digest, pinnedImage: `${registry.host}/voice-bot@${digest}` });
      expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      const output = await resolved(ah.getImageDigestOutput({ image: pulumi.output(image) }));
      expect(output).toEqual(answer);
      expect(JSON.stringify(answer)).not.toContain(registry.password);
    } finally {
      delete process.env[REGISTRY_AUTH_ENV];
    }
  });

  it("a digest-form image: answered as written, no request (no credential is configured, and the registry would refuse one)", async () => {
    const pinned = `${registry.host}/voice-bot@${digest}`;
    const proxy = await registry.proxy();
    try {
      const viaProxy = `${proxy.host}/voice-bot@${digest}`;
      expect(await ah.getImageDigest({ image: pinned })).toEqual({ image: pinned, digest, pinnedImage: pinned });
      expect(await ah.getImageDigest({ image: viaProxy })).toEqual({ image: viaProxy, digest, pinnedImage: viaProxy });
      expect(proxy.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
