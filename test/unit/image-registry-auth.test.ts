/**
 * The resolver's authentication against undici's MockAgent: anonymous,
 * `Basic` when the registry asks for it, the `Bearer` challenge flow
 * (anonymous or with credentials, `token` or `access_token`), credentials
 * from agent-hosting:registryAuth and the docker config file, the errors
 * when credentials are missing or refused, and no credential or token in
 * any message.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockAgent } from "undici";
import type { MockCallHistoryLog } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ImageDigestResolver } from "../../src/image-registry/digest-resolver";
import type { ImageDigestResolverOptions } from "../../src/image-registry/digest-resolver";
import { ImageRegistryError } from "../../src/image-registry/registry-errors";
import { headersOf } from "./support/client-harness";

const DIGEST = `sha256:${"c".repeat(64)}`;
const ORIGIN = "https://registry.example.com";
const IMAGE = "registry.example.com/acme/voice-bot:main";
const MANIFEST_PATH = "/v2/acme/voice-bot/manifests/main";
const USER = "robot$acme";
const PASSWORD = "pw-Zq8!unique-4711";
const TOKEN = "tok-unique-0815";
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;
const BEARER_CHALLENGE = 'Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:acme/voice-bot:pull"';

let mockAgent: MockAgent | undefined;
let resolver: ImageDigestResolver;
let configDir: string;
const messages: string[] = [];
const kinds = new Set<string>();

beforeAll(() => {
  configDir = mkdtempSync(join(tmpdir(), "docker-config-"));
});
afterAll(() => {
  rmSync(configDir, { recursive: true, force: true });
});

function setUp(options: ImageDigestResolverOptions = {}): MockAgent {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  mockAgent = agent;
  resolver = new ImageDigestResolver({ dockerConfigFile: false, dispatcher: agent, ...options });
  return agent;
}

function calls(): MockCallHistoryLog[] {
  return mockAgent?.getCallHistory()?.calls() ?? [];
}

const withCredentials = { registryAuth: [{ server: "registry.example.com", username: USER, password: PASSWORD }] };

function dockerConfigWithCredentials(): string {
  const path = join(configDir, "config.json");
  writeFileSync(path, JSON.stringify({ auths: { "https://registry.example.com": { auth: Buffer.from(`${USER}:${PASSWORD}`).toString("base64") } } }));
  return path;
}

async function rejection(promise: Promise<unknown>): Promise<ImageRegistryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImageRegistryError);
  const registryError = error as ImageRegistryError;
  kinds.add(registryError.kind);
  messages.push(registryError.message, JSON.stringify(registryError), String(registryError.stack));
  return registryError;
}

function challenge(value: string) {
  return { headers: { "www-authenticate": value } };
}

afterEach(async () => {
  const agent = mockAgent;
  mockAgent = undefined;
  if (!agent) return;
  agent.assertNoPendingInterceptors();
  await resolver.close();
  await agent.close();
});

describe("Basic", () => {
  it("answers a Basic challenge with the registryAuth entry's credentials", async () => {
    const mockAgent = setUp(withCredentials);
    const pool = mockAgent.get(ORIGIN);
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge('Basic realm="Registry Realm"'));
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD", headers: { authorization: BASIC } }).reply(200, "", { headers: { "docker-content-digest": DIGEST } });
    expect((await resolver.resolve(IMAGE)).digest).toBe(DIGEST);
    expect(calls().map((c) => headersOf(c).authorization)).toEqual([undefined, BASIC]);
  });

  it("reads the credentials from the docker config file", async () => {
    const mockAgent = setUp({ dockerConfigFile: dockerConfigWithCredentials() });
    const pool = mockAgent.get(ORIGIN);
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge('Basic realm="Registry Realm"'));
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD", headers: { authorization: BASIC } }).reply(200, "", { headers: { "docker-content-digest": DIGEST } });
    expect((await resolver.resolve(IMAGE)).digest).toBe(DIGEST);
  });

  it("without credentials, fails naming docker login, agent-hosting:registryAuth and pinImageDigest: false", async () => {
    const mockAgent = setUp();
    mockAgent.get(ORIGIN).intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge('Basic realm="Registry Realm"'));
    const error = await rejection(resolver.resolve(IMAGE));
    expect(error).toMatchObject({ kind: "credentials-missing", registry: "registry.example.com", repository: "acme/voice-bot", tag: "main", status: 401 });
    expect(error.message).toBe(
      "registry registry.example.com, repository acme/voice-bot, tag main: the registry asks for credentials (HTTP 401) and none are configured for registry.example.com; " +
        "the repository is private or does not exist: run `docker login registry.example.com` where the preview runs, " +
        'or add {server: "registry.example.com", username, password} to the secret setting agent-hosting:registryAuth, ' +
        "or set pinImageDigest: false on the agent (or `pulumi config set agent-hosting:pinImageDigests false` for the whole stack) to send the image as written, unresolved",
    );
    expect(calls()).toHaveLength(1);
  });

  it("refused credentials name where they came from", async () => {
    const mockAgent = setUp({ dockerConfigFile: dockerConfigWithCredentials() });
    const pool = mockAgent.get(ORIGIN);
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge('Basic realm="Registry Realm"'));
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge('Basic realm="Registry Realm"'));
    const error = await rejection(resolver.resolve(IMAGE));
    expect(error.kind).toBe("credentials-refused");
    expect(error.message).toContain(`the registry refused the credentials from the docker config file ${join(configDir, "config.json")} (HTTP 401)`);
    expect(error.message).toContain("`docker login registry.example.com`");
    expect(error.message).toContain("pinImageDigest: false");
  });
});

describe("Bearer", () => {
  it("anonymously: asks the realm for the challenge's service and scope, then sends the token", async () => {
    const mockAgent = setUp();
    const pool = mockAgent.get(ORIGIN);
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge(BEARER_CHALLENGE));
    mockAgent
      .get("https://auth.example.com")
      .intercept({ path: "/token", method: "GET", query: { service: "registry.example.com", scope: "repository:acme/voice-bot:pull" } })
      .reply(200, { token: TOKEN });
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD", headers: { authorization: `Bearer ${TOKEN}` } }).reply(200, "", { headers: { "docker-content-digest": DIGEST } });
    expect((await resolver.resolve(IMAGE)).digest).toBe(DIGEST);
    expect(calls().map((c) => `${c.method} ${c.origin}${c.path.split("?")[0]} ${headersOf(c).authorization ?? "-"}`)).toEqual([
      `HEAD ${ORIGIN}${MANIFEST_PATH} -`,
      "GET https://auth.example.com/token -",
      `HEAD ${ORIGIN}${MANIFEST_PATH} Bearer ${TOKEN}`,
    ]);
  });

  it("with credentials: sends them to the token service as Basic, takes access_token, and asks for repository:<name>:pull when the challenge names no scope", async () => {
    const mockAgent = setUp(withCredentials);
    const pool = mockAgent.get(ORIGIN);
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge('Bearer realm="https://auth.example.com/token",service="reg"'));
    mockAgent
      .get("https://auth.example.com")
      .intercept({ path: "/token", method: "GET", query: { service: "reg", scope: "repository:acme/voice-bot:pull" }, headers: { authorization: BASIC } })
      .reply(200, { access_token: TOKEN, expires_in: 300 });
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD", headers: { authorization: `Bearer ${TOKEN}` } }).reply(200, "", { headers: { "docker-content-digest": DIGEST } });
    expect((await resolver.resolve(IMAGE)).digest).toBe(DIGEST);
  });

  it("400 resolutions of one image make one challenged HEAD, one token request and one HEAD with the token", async () => {
    const mockAgent = setUp();
    const pool = mockAgent.get(ORIGIN);
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge(BEARER_CHALLENGE));
    mockAgent.get("https://auth.example.com").intercept({ path: /^\/token/, method: "GET" }).reply(200, { token: TOKEN });
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(200, "", { headers: { "docker-content-digest": DIGEST } });
    const results = await Promise.all(Array.from({ length: 400 }, () => resolver.resolve(IMAGE)));
    expect(results.every((r) => r.digest === DIGEST)).toBe(true);
    expect(calls().map((c) => c.method)).toEqual(["HEAD", "GET", "HEAD"]);
  });

  it("a token service refusing anonymous access asks for credentials, naming the token service", async () => {
    const mockAgent = setUp();
    mockAgent.get(ORIGIN).intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge(BEARER_CHALLENGE));
    mockAgent.get("https://auth.example.com").intercept({ path: /^\/token/, method: "GET" }).reply(401, '{"errors":[{"code":"UNAUTHORIZED"}]}');
    const error = await rejection(resolver.resolve(IMAGE));
    expect(error.kind).toBe("credentials-missing");
    expect(error.message).toContain("the token service https://auth.example.com/token asks for credentials (HTTP 401 UNAUTHORIZED)");
  });

  it("a token service refusing the credentials says so, naming agent-hosting:registryAuth as their source", async () => {
    const mockAgent = setUp(withCredentials);
    mockAgent.get(ORIGIN).intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge(BEARER_CHALLENGE));
    mockAgent.get("https://auth.example.com").intercept({ path: /^\/token/, method: "GET" }).reply(401, "");
    const error = await rejection(resolver.resolve(IMAGE));
    expect(error.kind).toBe("credentials-refused");
    expect(error.message).toContain("the token service https://auth.example.com/token refused the credentials from agent-hosting:registryAuth (HTTP 401)");
    expect(error.message).toContain("correct the entry for registry.example.com in agent-hosting:registryAuth");
  });

  it("an anonymous token the registry still refuses (a private or missing repository) asks for credentials", async () => {
    const mockAgent = setUp();
    const pool = mockAgent.get(ORIGIN);
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge(BEARER_CHALLENGE));
    mockAgent.get("https://auth.example.com").intercept({ path: /^\/token/, method: "GET" }).reply(200, { token: TOKEN });
    pool.intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge(`${BEARER_CHALLENGE},error="insufficient_scope"`));
    const error = await rejection(resolver.resolve(IMAGE));
    expect(error).toMatchObject({ kind: "credentials-missing", status: 401 });
    expect(calls()).toHaveLength(3);
  });

  it.each([
    [{ token: "" }, "answered without a token or access_token (HTTP 200)"],
    ["not json", "answered with a body that is not JSON (HTTP 200)"],
  ])("a token answer %j is an error", async (body, text) => {
    const mockAgent = setUp();
    mockAgent.get(ORIGIN).intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge(BEARER_CHALLENGE));
    mockAgent.get("https://auth.example.com").intercept({ path: /^\/token/, method: "GET" }).reply(200, body);
    const error = await rejection(resolver.resolve(IMAGE));
    expect(error.kind).toBe("registry-answer");
    expect(error.message).toContain(text);
  });

  it("refuses a plain-http token service that is not on this machine, sending it nothing", async () => {
    const mockAgent = setUp(withCredentials);
    mockAgent.get(ORIGIN).intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge('Bearer realm="http://auth.example.com/token",service="reg"'));
    const error = await rejection(resolver.resolve(IMAGE));
    expect(error.kind).toBe("insecure-http");
    expect(error.message).toContain("http://auth.example.com is not https and not on this machine");
    expect(calls()).toHaveLength(1);
  });

  it("a challenge without a realm is an error", async () => {
    const mockAgent = setUp();
    mockAgent.get(ORIGIN).intercept({ path: MANIFEST_PATH, method: "HEAD" }).reply(401, "", challenge('Bearer service="reg"'));
    expect((await rejection(resolver.resolve(IMAGE))).message).toContain("sent a Bearer challenge without a usable realm URL");
  });
});

describe("no credential in any error", () => {
  it("the password, its base64 and the token appear in none of the messages, JSON forms or stacks above", () => {
    expect(kinds).toEqual(new Set(["credentials-missing", "credentials-refused", "insecure-http", "registry-answer"]));
    const text = messages.join("\n");
    for (const secret of [PASSWORD, Buffer.from(`${USER}:${PASSWORD}`).toString("base64"), TOKEN]) expect(text).not.toContain(secret);
  });
});
