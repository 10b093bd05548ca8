/**
 * A real OCI registry for the image-digest tests: the CNCF distribution
 * registry (built by scripts/lib/image-registry.mjs) on 127.0.0.1, port 0,
 * over plain http, with its own temporary storage, in one of three modes:
 *
 * - "anonymous": anyone pulls and pushes;
 * - "basic": htpasswd `Basic` auth (a bcrypt file written by tools/image-registry/htpasswd);
 * - "bearer": `auth: token`, with the token service of
 *   test/support/image-registry-token-service.ts.
 *
 * Images are pushed, re-tagged and gathered into multi-arch indexes with
 * go-containerregistry's `crane`, which logs in with the registry's pusher
 * through a docker config file of its own; each image is one layer of random
 * bytes on an empty base, so every push is a new digest. `proxy()` puts a
 * counting loopback proxy in front of the registry, optionally without the
 * `Docker-Content-Digest` header, to count the resolver's requests and to
 * make it take its GET path.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { imageRegistryTools } from "./project-scripts";
import { startTokenService } from "./image-registry-token-service";
import type { TokenService } from "./image-registry-token-service";

const run = promisify(execFile);

export type RegistryAuthMode = "anonymous" | "basic" | "bearer";

export interface ImageRegistryOptions {
  auth: RegistryAuthMode;
  /** In "bearer" mode, the repositories anonymous clients may pull (others need credentials). */
  publicRepositories?: readonly string[];
}

export interface ProxiedRequest {
  method: string;
  path: string;
  /** The scheme of the Authorization header sent, or "none". */
  authorization: string;
}

export interface RegistryProxy {
  /** `127.0.0.1:<port>`, the registry host to name in images. */
  host: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

export interface RunningImageRegistry {
  /** `127.0.0.1:<port>`. */
  host: string;
  /** The user crane pushes as; tests give these to the resolver to read private repositories. */
  username: string;
  password: string;
  /** The token service, in "bearer" mode. */
  tokenService: TokenService | undefined;
  /** Pushes a new image (one random layer) to repository:tag; returns its manifest digest. */
  pushImage(repository: string, tag: string, platform?: string): Promise<string>;
  /** Pushes an index of the given references (`repository:tag`) as repository:tag; returns the index digest. */
  pushIndex(repository: string, tag: string, manifests: readonly string[]): Promise<string>;
  /** Points `toTag` at what `fromTag` names now. */
  retag(repository: string, fromTag: string, toTag: string): Promise<void>;
  /** The digest the tag names, as crane reads it. */
  digest(repository: string, tag: string): Promise<string>;
  /** The manifest's media type, as crane reads it. */
  mediaType(repository: string, tag: string): Promise<string>;
  proxy(options?: { withoutDigestHeader?: boolean }): Promise<RegistryProxy>;
  /** The registry's log so far (stderr). */
  log(): string;
  close(): Promise<void>;
}

const SERVICE = "agent-hosting-test-registry";

function authConfig(options: ImageRegistryOptions, dir: string, tokenService: TokenService | undefined): Record<string, unknown> {
  if (options.auth === "basic") return { htpasswd: { realm: SERVICE, path: join(dir, "htpasswd") } };
  if (options.auth === "bearer" && tokenService) {
    return { token: { realm: tokenService.realm, service: SERVICE, issuer: tokenService.issuer, rootcertbundle: tokenService.certificateFile } };
  }
  return {};
}

function startProxy(target: string, withoutDigestHeader: boolean): Promise<RegistryProxy> {
  const requests: ProxiedRequest[] = [];
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
      const { port } = server.address() as AddressInfo;
      resolve({ host: `127.0.0.1:${port}`, requests, close: () => new Promise<void>((done) => server.close(() => done())) });
    }),
  );
}

/** Starts a registry in the given mode; the caller closes it. */
export async function startImageRegistry(options: ImageRegistryOptions): Promise<RunningImageRegistry> {
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
  const config = {
    version: 0.1,
    log: { level: "info", formatter: "json", accesslog: { disabled: true } },
    storage: { filesystem: { rootdirectory: join(dir, "storage") }, delete: { enabled: true }, maintenance: { uploadpurging: { enabled: false } } },
    http: { addr: "127.0.0.1:0", secret: randomBytes(16).toString("hex") },
    auth: authConfig(options, dir, tokenService),
  };
  if (options.auth === "anonymous") delete (config as { auth?: unknown }).auth;
  // JSON is YAML: the registry reads this file as its configuration.
  writeFileSync(join(dir, "config.yml"), JSON.stringify(config));

  const child = spawn(tools.registry, ["serve", join(dir, "config.yml")], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  const host = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
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
  const crane = async (...args: string[]): Promise<string> => {
    const { stdout } = await run(tools.crane, [...args, "--insecure"], { env: { ...process.env, DOCKER_CONFIG: craneConfig } });
    return stdout.trim();
  };
  const ref = (repository: string, tag: string) => `${host}/${repository}:${tag}`;
  const proxies: RegistryProxy[] = [];
  let layers = 0;

  const registry: RunningImageRegistry = {
    host,
    username,
    password,
    tokenService,
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
    async pushIndex(repository, tag, manifests) {
      await crane("index", "append", ...manifests.flatMap((m) => ["-m", `${host}/${m}`]), "-t", ref(repository, tag));
      return registry.digest(repository, tag);
    },
    async retag(repository, fromTag, toTag) {
      await crane("tag", ref(repository, fromTag), toTag);
    },
    digest: (repository, tag) => crane("digest", ref(repository, tag)),
    async mediaType(repository, tag) {
      return (JSON.parse(await crane("manifest", ref(repository, tag))) as { mediaType: string }).mediaType;
    },
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
