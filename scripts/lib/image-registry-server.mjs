// @ts-check
// A real OCI registry for the image-digest tests and the bench's registry
// figure: the CNCF distribution registry (built by ./image-registry.mjs) on
// 127.0.0.1, port 0, over plain http, with its own temporary storage, in one
// of three modes:
//
// - "anonymous": anyone pulls and pushes;
// - "basic": htpasswd `Basic` auth (a bcrypt file written by tools/image-registry/htpasswd);
// - "bearer": `auth: token`, with the token service of ./image-registry-token-service.mjs.
//
// Images are pushed, re-tagged and gathered into multi-arch indexes with
// go-containerregistry's `crane`, which logs in with the registry's pusher
// through a docker config file of its own; each image is one layer of random
// bytes on an empty base, so every push is a new digest. `proxy()` puts a
// counting loopback proxy in front of the registry, optionally without the
// `Docker-Content-Digest` header, to count the resolver's requests and to
// make it take its GET path. test/support/image-registry-fixture.ts types it
// for the tests.
import { execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { imageRegistryTools } from "./image-registry.mjs";
import { startTokenService } from "./image-registry-token-service.mjs";

const run = promisify(execFile);
const SERVICE = "agent-hosting-test-registry";

/**
 * @param {{ auth: string }} options @param {string} dir
 * @param {import("./image-registry-token-service.mjs").TokenService | undefined} tokenService
 * @returns {Record<string, unknown>}
 */
function authConfig(options, dir, tokenService) {
  if (options.auth === "basic") return { htpasswd: { realm: SERVICE, path: join(dir, "htpasswd") } };
  if (options.auth === "bearer" && tokenService) {
    return { token: { realm: tokenService.realm, service: SERVICE, issuer: tokenService.issuer, rootcertbundle: tokenService.certificateFile } };
  }
  return {};
}

/**
 * @param {string} target @param {boolean} withoutDigestHeader
 * @returns {Promise<{ host: string, requests: { method: string, path: string, authorization: string }[], close(): Promise<void> }>}
 */
function startProxy(target, withoutDigestHeader) {
  /** @type {{ method: string, path: string, authorization: string }[]} */
  const requests = [];
  const server = createServer((incoming, outgoing) => {
    requests.push({ method: incoming.method ?? "", path: incoming.url ?? "", authorization: incoming.headers.authorization?.split(" ")[0]?.toLowerCase() ?? "none" });
    const [hostname, port] = target.split(":");
    const forward = httpRequest({ hostname, port: Number(port), method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      const headers = { ...answer.headers };
      if (withoutDigestHeader) delete headers["docker-content-digest"];
      outgoing.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(outgoing);
    });
    forward.on("error", () => outgoing.destroy());
    incoming.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({ host: `127.0.0.1:${port}`, requests, close: () => new Promise((done) => server.close(() => done(undefined))) });
    }),
  );
}

/**
 * Starts a registry in the given mode; the caller closes it.
 * @param {{ auth: "anonymous" | "basic" | "bearer", publicRepositories?: readonly string[] }} options
 */
export async function startImageRegistry(options) {
  const tools = imageRegistryTools();
  const dir = mkdtempSync(join(tmpdir(), "image-registry-"));
  const username = "pusher";
  const password = `pw-${randomBytes(12).toString("hex")}`;
  const tokenService =
    options.auth === "bearer"
      ? await startTokenService({ dir, service: SERVICE, users: { [username]: password }, publicRepositories: options.publicRepositories ?? [] })
      : undefined;
  if (options.auth === "basic") {
    // The password goes on stdin, never in an argument.
    writeFileSync(join(dir, "htpasswd"), execFileSync(tools.htpasswd, [username], { input: password }));
  }
  /** @type {Record<string, unknown>} */
  const config = {
    version: 0.1,
    log: { level: "info", formatter: "json", accesslog: { disabled: true } },
    storage: { filesystem: { rootdirectory: join(dir, "storage") }, delete: { enabled: true }, maintenance: { uploadpurging: { enabled: false } } },
    http: { addr: "127.0.0.1:0", secret: randomBytes(16).toString("hex") },
    auth: authConfig(options, dir, tokenService),
  };
  if (options.auth === "anonymous") delete config["auth"];
  // JSON is YAML: the registry reads this file as its configuration.
  writeFileSync(join(dir, "config.yml"), JSON.stringify(config));

  const child = spawn(tools.registry, ["serve", join(dir, "config.yml")], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  /** @type {string} */
  const host = await new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (/** @type {string} */ text) => {
      log += text;
      const listening = /"msg":"listening on (127\.0\.0\.1:\d+)"/.exec(log);
      if (listening?.[1]) resolve(listening[1]);
    });
    child.once("exit", (code) => reject(new Error(`the registry exited (${code}) before listening:\n${log}`)));
    child.once("error", reject);
  });

  // crane's own docker config: the pusher's credentials for this registry.
  const craneConfig = join(dir, "crane-docker-config");
  mkdirSync(craneConfig);
  writeFileSync(join(craneConfig, "config.json"), JSON.stringify({ auths: { [host]: { auth: Buffer.from(`${username}:${password}`).toString("base64") } } }));
  const crane = async (/** @type {string[]} */ ...args) => {
    const { stdout } = await run(tools.crane, [...args, "--insecure"], { env: { ...process.env, DOCKER_CONFIG: craneConfig } });
    return stdout.trim();
  };
  const ref = (/** @type {string} */ repository, /** @type {string} */ tag) => `${host}/${repository}:${tag}`;
  /** @type {Awaited<ReturnType<typeof startProxy>>[]} */
  const proxies = [];
  let layers = 0;

  const registry = {
    host,
    username,
    password,
    tokenService,
    /** @param {string} repository @param {string} tag @param {string} [platform] */
    async pushImage(repository, tag, platform) {
      layers += 1;
      const layerDir = join(dir, `layer-${layers}`);
      mkdirSync(layerDir);
      writeFileSync(join(layerDir, "build-id"), randomBytes(32).toString("hex"));
      await run("tar", ["-cf", `${layerDir}.tar`, "-C", layerDir, "build-id"]);
      await crane("append", "-f", `${layerDir}.tar`, "-t", ref(repository, tag), "--oci-empty-base");
      if (platform !== undefined) await crane("mutate", ref(repository, tag), "--set-platform", platform, "-t", ref(repository, tag));
      return registry.digest(repository, tag);
    },
    /** @param {string} repository @param {string} tag @param {readonly string[]} manifests */
    async pushIndex(repository, tag, manifests) {
      await crane("index", "append", ...manifests.flatMap((m) => ["-m", `${host}/${m}`]), "-t", ref(repository, tag));
      return registry.digest(repository, tag);
    },
    /** @param {string} repository @param {string} fromTag @param {string} toTag */
    async retag(repository, fromTag, toTag) {
      await crane("tag", ref(repository, fromTag), toTag);
    },
    /** @param {string} repository @param {string} tag */
    digest: (repository, tag) => crane("digest", ref(repository, tag)),
    /** @param {string} repository @param {string} tag */
    async mediaType(repository, tag) {
      return /** @type {{ mediaType: string }} */ (JSON.parse(await crane("manifest", ref(repository, tag)))).mediaType;
    },
    /** @param {{ withoutDigestHeader?: boolean }} [proxyOptions] */
    async proxy(proxyOptions = {}) {
      const proxy = await startProxy(host, proxyOptions.withoutDigestHeader ?? false);
      proxies.push(proxy);
      return proxy;
    },
    log: () => log,
    async close() {
      await Promise.all(proxies.map((p) => p.close()));
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      await tokenService?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return registry;
}
