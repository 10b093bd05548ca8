/**
 * The resolver's authentication against the real distribution registry:
 * htpasswd `Basic` and `auth: token` (`Bearer`, with the harness's token
 * service), with credentials from agent-hosting:registryAuth entries and
 * from a docker config file (DOCKER_CONFIG), anonymous pulls of a public
 * repository behind tokens, the refusals when credentials are missing or
 * wrong, the requests 400 resolutions make, and the password in no error.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageDigestResolver, defaultDockerConfigFile } from "../../src/image-registry";
import type { ImageDigestResolverOptions, ImageRegistryError } from "../../src/image-registry";
import { startImageRegistry } from "../support/image-registry-fixture";
import type { RunningImageRegistry } from "../support/image-registry-fixture";

const resolvers: ImageDigestResolver[] = [];
const errors: ImageRegistryError[] = [];
const passwords: string[] = [];
let configDir: string;

function newResolver(options: ImageDigestResolverOptions = {}): ImageDigestResolver {
  const resolver = new ImageDigestResolver({ dockerConfigFile: false, ...options });
  resolvers.push(resolver);
  return resolver;
}

function registryAuth(registry: RunningImageRegistry, password = registry.password): ImageDigestResolverOptions {
  return { registryAuth: [{ server: registry.host, username: registry.username, password }] };
}

/** A docker config directory as `docker login` leaves it, read through DOCKER_CONFIG. */
function dockerConfigFor(registry: RunningImageRegistry): string {
  const dir = mkdtempSync(join(configDir, "docker-"));
  const auth = Buffer.from(`${registry.username}:${registry.password}`).toString("base64");
  writeFileSync(join(dir, "config.json"), JSON.stringify({ auths: { [`http://${registry.host}`]: { auth } } }));
  return defaultDockerConfigFile({ DOCKER_CONFIG: dir });
}

async function failure(promise: Promise<unknown>): Promise<ImageRegistryError> {
  const error = (await promise.then(
    () => expect.unreachable("the resolution succeeded"),
    (e: unknown) => e,
  )) as ImageRegistryError;
  errors.push(error);
  return error;
}

beforeAll(() => {
  configDir = mkdtempSync(join(tmpdir(), "image-registry-auth-"));
});

afterAll(async () => {
  await Promise.all(resolvers.map((r) => r.close()));
  rmSync(configDir, { recursive: true, force: true });
});

describe("htpasswd Basic", () => {
  let registry: RunningImageRegistry;
  let image: string;
  let digest: string;
  beforeAll(async () => {
    registry = await startImageRegistry({ auth: "basic" });
    passwords.push(registry.password);
    digest = await registry.pushImage("private/voice-bot", "main");
    image = `${registry.host}/private/voice-bot:main`;
  });
  afterAll(() => registry?.close());

  it("resolves with the agent-hosting:registryAuth entry", async () => {
    expect((await newResolver(registryAuth(registry)).resolve(image)).digest).toBe(digest);
  });

  it("resolves with the docker config file's auths entry", async () => {
    expect((await newResolver({ dockerConfigFile: dockerConfigFor(registry) }).resolve(image)).digest).toBe(digest);
  });

  it("without credentials, fails naming docker login, agent-hosting:registryAuth and pinImageDigest: false", async () => {
    const error = await failure(newResolver().resolve(image));
    expect(error).toMatchObject({ kind: "credentials-missing", registry: registry.host, repository: "private/voice-bot", tag: "main", status: 401 });
    expect(error.message).toContain(`the registry asks for credentials (HTTP 401) and none are configured for ${registry.host}`);
    expect(error.message).toContain(`\`docker login ${registry.host}\``);
    expect(error.message).toContain("agent-hosting:registryAuth");
    expect(error.message).toContain("pinImageDigest: false");
  });

  it("with a wrong password, fails saying the registry refused the credentials of agent-hosting:registryAuth", async () => {
    const wrong = `${registry.password}-wrong`;
    passwords.push(wrong);
    const error = await failure(newResolver(registryAuth(registry, wrong)).resolve(image));
    expect(error).toMatchObject({ kind: "credentials-refused", status: 401 });
    expect(error.message).toContain("the registry refused the credentials from agent-hosting:registryAuth (HTTP 401");
  });

  it("400 resolutions make one challenged HEAD and one HEAD with Basic", async () => {
    const proxy = await registry.proxy();
    const resolver = newResolver({ registryAuth: [{ server: proxy.host, username: registry.username, password: registry.password }] });
    const results = await Promise.all(Array.from({ length: 400 }, () => resolver.resolve(`${proxy.host}/private/voice-bot:main`)));
    expect(new Set(results.map((r) => r.digest))).toEqual(new Set([digest]));
    expect(proxy.requests.map((r) => `${r.method} ${r.authorization}`)).toEqual(["HEAD none", "HEAD basic"]);
  });
});

describe("token auth (Bearer)", () => {
  let registry: RunningImageRegistry;
  let privateDigest: string;
  let publicDigest: string;
  beforeAll(async () => {
    registry = await startImageRegistry({ auth: "bearer", publicRepositories: ["public/base"] });
    passwords.push(registry.password);
    privateDigest = await registry.pushImage("private/voice-bot", "main");
    publicDigest = await registry.pushImage("public/base", "main");
  });
  afterAll(() => registry?.close());

  it("resolves a public repository anonymously: a token for repository:<name>:pull, no credentials sent", async () => {
    const before = registry.tokenService!.requests.length;
    expect((await newResolver().resolve(`${registry.host}/public/base:main`)).digest).toBe(publicDigest);
    expect(registry.tokenService!.requests.slice(before)).toEqual([{ who: "anonymous", scopes: ["repository:public/base:pull"] }]);
  });

  it("resolves a private repository with the registryAuth entry, and with the docker config file", async () => {
    expect((await newResolver(registryAuth(registry)).resolve(`${registry.host}/private/voice-bot:main`)).digest).toBe(privateDigest);
    expect((await newResolver({ dockerConfigFile: dockerConfigFor(registry) }).resolve(`${registry.host}/private/voice-bot:main`)).digest).toBe(privateDigest);
    expect(registry.tokenService!.requests.filter((r) => r.scopes.includes("repository:private/voice-bot:pull")).map((r) => r.who)).toContain(registry.username);
  });

  it("without credentials, a private repository fails asking for them", async () => {
    const error = await failure(newResolver().resolve(`${registry.host}/private/voice-bot:main`));
    expect(error).toMatchObject({ kind: "credentials-missing", status: 401, repository: "private/voice-bot", tag: "main" });
    expect(error.message).toContain(`\`docker login ${registry.host}\``);
    expect(error.message).toContain("pinImageDigest: false");
  });

  it("with a wrong password, the token service's refusal names it and where the credentials came from", async () => {
    const wrong = `${registry.password}-wrong`;
    const error = await failure(newResolver({ dockerConfigFile: dockerConfigFor(registry), ...registryAuth(registry, wrong) }).resolve(`${registry.host}/private/voice-bot:main`));
    expect(error).toMatchObject({ kind: "credentials-refused", status: 401 });
    expect(error.message).toContain(`the token service ${registry.tokenService!.realm} refused the credentials from agent-hosting:registryAuth (HTTP 401 UNAUTHORIZED)`);
  });

  it("a missing tag behind tokens is a 404 naming the tag", async () => {
    const error = await failure(newResolver(registryAuth(registry)).resolve(`${registry.host}/private/voice-bot:nightly`));
    expect(error).toMatchObject({ kind: "not-found", status: 404, tag: "nightly" });
  });

  it("400 resolutions make one challenged HEAD, one token request and one HEAD with the token", async () => {
    const proxy = await registry.proxy();
    const tokensBefore = registry.tokenService!.requests.length;
    const resolver = newResolver({ registryAuth: [{ server: proxy.host, username: registry.username, password: registry.password }] });
    const results = await Promise.all(Array.from({ length: 400 }, () => resolver.resolve(`${proxy.host}/private/voice-bot:main`)));
    expect(new Set(results.map((r) => r.digest))).toEqual(new Set([privateDigest]));
    expect(proxy.requests.map((r) => `${r.method} ${r.authorization}`)).toEqual(["HEAD none", "HEAD bearer"]);
    expect(registry.tokenService!.requests.slice(tokensBefore)).toEqual([{ who: registry.username, scopes: ["repository:private/voice-bot:pull"] }]);
  });
});

describe("no credential in any error", () => {
  it("no password (right or wrong), nor its base64, appears in the messages, JSON forms or stacks of the refusals above", () => {
    expect(new Set(errors.map((e) => e.kind))).toEqual(new Set(["credentials-missing", "credentials-refused", "not-found"]));
    const text = errors.map((e) => [e.message, JSON.stringify(e), e.stack].join("\n")).join("\n");
    expect(passwords.length).toBeGreaterThanOrEqual(3);
    for (const password of passwords) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(Buffer.from(`pusher:${password}`).toString("base64"));
    }
  });
});
