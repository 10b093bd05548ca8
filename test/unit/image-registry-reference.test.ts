/**
 * The resolver's pure parts: image references read as `docker pull` reads
 * them, WWW-Authenticate challenges, and where credentials are found (the
 * caller's registryAuth list, then the docker config file), and the rules of
 * the agent-hosting:registryAuth setting.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/client/errors";
import { parseAuthChallenges } from "../../src/image-registry/auth-challenge";
import { imageName, pinImage } from "../../src/image-registry/reference-parts";
import { canonicalName, parseImageReference } from "../../src/image-registry/oci-reference";
import { parseRegistryAuth } from "../../src/image-registry/registry-auth-setting";
import { RegistryCredentials, defaultDockerConfigFile, serverKey } from "../../src/image-registry/registry-credentials";
import { ImageRegistryError } from "../../src/image-registry/registry-errors";

const DIGEST = `sha256:${"ab".repeat(32)}`;

describe("parseImageReference", () => {
  it.each([
    ["nginx", "docker.io", "registry-1.docker.io", "library/nginx", "latest"],
    ["nginx:1.27", "docker.io", "registry-1.docker.io", "library/nginx", "1.27"],
    ["bitnami/redis:7", "docker.io", "registry-1.docker.io", "bitnami/redis", "7"],
    ["docker.io/nginx", "docker.io", "registry-1.docker.io", "library/nginx", "latest"],
    ["index.docker.io/library/nginx:stable", "docker.io", "registry-1.docker.io", "library/nginx", "stable"],
    ["ghcr.io/acme/voice-bot:main", "ghcr.io", "ghcr.io", "acme/voice-bot", "main"],
    ["localhost/voice-bot", "localhost", "localhost", "voice-bot", "latest"],
    ["localhost:5000/team/voice-bot:v1.2", "localhost:5000", "localhost:5000", "team/voice-bot", "v1.2"],
    ["127.0.0.1:5000/voice-bot:main", "127.0.0.1:5000", "127.0.0.1:5000", "voice-bot", "main"],
    ["Registry/voice-bot:main", "Registry", "Registry", "voice-bot", "main"],
    ["registry.example.com/a/b/c:x_y-z.1", "registry.example.com", "registry.example.com", "a/b/c", "x_y-z.1"],
  ])("%s is %s (asked at %s), repository %s, tag %s", (image, registry, apiHost, repository, tag) => {
    expect(parseImageReference(image)).toEqual({ image, registry, apiHost, repository, tag });
  });

  it("reads a digest-form image's digest, keeping a tag written beside it", () => {
    expect(parseImageReference(`ghcr.io/acme/bot@${DIGEST}`)).toEqual({
      image: `ghcr.io/acme/bot@${DIGEST}`,
      registry: "ghcr.io",
      apiHost: "ghcr.io",
      repository: "acme/bot",
      digest: DIGEST,
    });
    expect(parseImageReference(`nginx:1.27@${DIGEST}`)).toMatchObject({ repository: "library/nginx", tag: "1.27", digest: DIGEST });
  });

  it.each([
    ["", "empty"],
    ["nginx latest", "whitespace"],
    ["nginx@sha256:abc", "not a digest"],
    ["nginx@md5:" + "ab".repeat(16), "not a digest"],
    ["nginx:-bad", "not a tag"],
    ["acme/Voice-Bot:main", "repository component"],
    ["ghcr.io//bot:main", "repository component"],
    ["bad_host.example.com:xx/bot:main", "not a registry host"],
  ])("refuses %j (%s) with an invalid-reference error", (image, why) => {
    let caught: unknown;
    try {
      parseImageReference(image);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImageRegistryError);
    expect((caught as ImageRegistryError).kind).toBe("invalid-reference");
    expect((caught as Error).message).toContain(why);
  });

  it("spells each reference one way for the cache, whatever the user wrote", () => {
    const spellings = ["nginx", "nginx:latest", "docker.io/nginx", "docker.io/library/nginx:latest", "index.docker.io/library/nginx"];
    expect(new Set(spellings.map((s) => canonicalName(parseImageReference(s))))).toEqual(new Set(["docker.io/library/nginx:latest"]));
    expect(canonicalName(parseImageReference(`nginx@${DIGEST}`))).toBe(`docker.io/library/nginx@${DIGEST}`);
  });

  it("pins an image by its name as written", () => {
    expect(pinImage("localhost:5000/bot:main", DIGEST)).toBe(`localhost:5000/bot@${DIGEST}`);
    expect(pinImage("nginx", DIGEST)).toBe(`nginx@${DIGEST}`);
    expect(imageName(`ghcr.io/acme/bot:v1@${DIGEST}`)).toBe("ghcr.io/acme/bot");
  });
});

describe("parseAuthChallenges", () => {
  it("reads a Bearer challenge's realm, service and scope", () => {
    const header = 'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/nginx:pull"';
    expect(parseAuthChallenges(header)).toEqual([
      { scheme: "bearer", params: { realm: "https://auth.docker.io/token", service: "registry.docker.io", scope: "repository:library/nginx:pull" } },
    ]);
  });

  it("reads several challenges, unquoted values and escapes, across header values", () => {
    expect(parseAuthChallenges(['Basic realm="Registry \\"x\\"", charset=UTF-8', "Bearer realm=https://t.test/token, error=insufficient_scope"])).toEqual([
      { scheme: "basic", params: { realm: 'Registry "x"', charset: "UTF-8" } },
      { scheme: "bearer", params: { realm: "https://t.test/token", error: "insufficient_scope" } },
    ]);
    expect(parseAuthChallenges(undefined)).toEqual([]);
  });
});

describe("RegistryCredentials", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function configFile(content: unknown): string {
    dir = mkdtempSync(join(tmpdir(), "docker-config-"));
    const path = join(dir, "config.json");
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
    return path;
  }

  it("reads auths entries by auth (base64 user:password, colons in the password kept) or username and password", () => {
    const path = configFile({
      auths: {
        "https://index.docker.io/v1/": { auth: Buffer.from("hubuser:hub:pass").toString("base64") },
        "localhost:5000": { username: "local", password: "pw" },
        "https://registry.example.com/v2/": { auth: Buffer.from("ex:ample").toString("base64") },
      },
    });
    const credentials = new RegistryCredentials({ dockerConfigFile: path });
    const source = `the docker config file ${path}`;
    expect(credentials.lookup("docker.io")).toEqual({ credential: { username: "hubuser", password: "hub:pass", source } });
    expect(credentials.lookup("localhost:5000")).toEqual({ credential: { username: "local", password: "pw", source } });
    expect(credentials.lookup("Registry.Example.com")).toEqual({ credential: { username: "ex", password: "ample", source } });
    expect(credentials.lookup("ghcr.io")).toEqual({});
  });

  it("prefers the registryAuth entries, matched by host whatever their scheme or path", () => {
    const path = configFile({ auths: { "ghcr.io": { username: "from-file", password: "f" } } });
    const credentials = new RegistryCredentials({
      dockerConfigFile: path,
      registryAuth: [{ server: "https://ghcr.io/", username: "from-setting", password: "s" }],
    });
    expect(credentials.lookup("ghcr.io")).toEqual({ credential: { username: "from-setting", password: "s", source: "agent-hosting:registryAuth" } });
  });

  it("says when docker keeps the credentials in a helper it does not run, or the file is not JSON", () => {
    const helper = new RegistryCredentials({ dockerConfigFile: configFile({ credHelpers: { "ghcr.io": "gh" }, credsStore: "desktop" }) });
    expect(helper.lookup("ghcr.io").hint).toContain("docker-credential-gh");
    expect(helper.lookup("quay.io").hint).toContain("docker-credential-desktop");
    const broken = new RegistryCredentials({ dockerConfigFile: configFile("{not json") });
    expect(broken.lookup("ghcr.io")).toEqual({ hint: expect.stringContaining("could not be read") });
    expect(new RegistryCredentials({ dockerConfigFile: join(tmpdir(), "no-such-dir-4711", "config.json") }).lookup("ghcr.io")).toEqual({});
  });

  it("finds the docker config file as docker does, and keys servers by host", () => {
    expect(defaultDockerConfigFile({ DOCKER_CONFIG: "/etc/dc" })).toBe("/etc/dc/config.json");
    expect(defaultDockerConfigFile({})).toMatch(/\.docker\/config\.json$/);
    expect(serverKey("https://index.docker.io/v1/")).toBe("docker.io");
    expect(serverKey("http://LOCALHOST:5000/path")).toBe("localhost:5000");
  });
});

describe("parseRegistryAuth", () => {
  const SECRET = "s3cr3t-value-99";

  it("reads the list from JSON or as given, and nothing when unset", () => {
    const entries = [{ server: "ghcr.io", username: "bot", password: SECRET }];
    expect(parseRegistryAuth(JSON.stringify(entries))).toEqual(entries);
    expect(parseRegistryAuth(entries)).toEqual(entries);
    expect(parseRegistryAuth(undefined)).toEqual([]);
    expect(parseRegistryAuth("")).toEqual([]);
  });

  it.each([
    ["{not json", "agent-hosting:registryAuth: is not JSON"],
    [{ server: "ghcr.io" }, "agent-hosting:registryAuth: is not a list"],
    [["ghcr.io"], "entry 0 is not an object"],
    [[{ server: "ghcr.io", username: "bot" }], "entry 0 has no password (a non-empty string)"],
    [[{ server: "ghcr.io", username: "bot", password: SECRET, token: SECRET }], "entry 0 has unknown field(s) token"],
    [
      [
        { server: "ghcr.io", username: "a", password: SECRET },
        { server: "GHCR.io", username: "b", password: SECRET },
      ],
      "entry 1 repeats the server GHCR.io",
    ],
  ])("refuses %j naming the mistake and how to set it, without the password", (raw, text) => {
    let caught: unknown;
    try {
      parseRegistryAuth(raw);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    const message = (caught as Error).message;
    expect(message).toContain(text);
    expect(message).toContain("pulumi config set --secret agent-hosting:registryAuth");
    expect(message).not.toContain(SECRET);
  });
});
