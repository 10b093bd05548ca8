/**
 * Where the resolver finds a registry's username and password: first the
 * caller's list (the provider's secret setting agent-hosting:registryAuth,
 * `{server, username, password}` entries), then the docker config file that
 * `docker login` writes (`$DOCKER_CONFIG/config.json`, else
 * `~/.docker/config.json`), its `auths` entries with `auth` (base64 of
 * `user:password`) or `username` and `password`. A server matches by host
 * (and port), whatever scheme or path it was written with; Docker Hub's
 * spellings (`https://index.docker.io/v1/`, `docker.io`, ...) all match
 * Docker Hub. Credential helpers (`credsStore`, `credHelpers`) run programs
 * and are not read; the hint says so when one would have served.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { DOCKER_HUB } from "./oci-reference";

export interface RegistryCredential {
  /** The registry as the user names it: `ghcr.io`, `https://index.docker.io/v1/`, `localhost:5000`. */
  server: string;
  username: string;
  password: string;
}

export interface FoundCredential {
  username: string;
  password: string;
  /** Where it came from, for messages: `agent-hosting:registryAuth` or `the docker config file <path>`. */
  source: string;
}

export interface CredentialLookup {
  credential?: FoundCredential;
  /** Why none was found although the user may think there is one (a credential helper, an unreadable file). */
  hint?: string;
}

export interface CredentialOptions {
  /** Entries of agent-hosting:registryAuth; they win over the docker config file. */
  registryAuth?: readonly RegistryCredential[];
  /** The docker config file to read; `false` reads none. Default: from DOCKER_CONFIG or the home directory. */
  dockerConfigFile?: string | false;
}

export const REGISTRY_AUTH_SETTING = "agent-hosting:registryAuth";

/** The docker config file docker itself reads: `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`. */
export function defaultDockerConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.DOCKER_CONFIG ? join(env.DOCKER_CONFIG, "config.json") : join(homedir(), ".docker", "config.json");
}

/** The host (and port) of a server as written in a login: scheme, path and case removed, Docker Hub's names as one. */
export function serverKey(server: string): string {
  const host = server.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").split("/", 1)[0]?.toLowerCase() ?? "";
  return host === "index.docker.io" || host === "registry-1.docker.io" ? DOCKER_HUB : host;
}

interface DockerConfig {
  entries: Map<string, { username: string; password: string }>;
  helpers: Map<string, string>;
  store?: string;
  problem?: string;
}

function decodeAuth(auth: string): { username: string; password: string } | undefined {
  const text = Buffer.from(auth, "base64").toString("utf8");
  const colon = text.indexOf(":");
  return colon > 0 ? { username: text.slice(0, colon), password: text.slice(colon + 1) } : undefined;
}

function readDockerConfig(path: string): DockerConfig {
  const config: DockerConfig = { entries: new Map(), helpers: new Map() };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") config.problem = `the docker config file ${path} could not be read (${(error as Error).name})`;
    return config;
  }
  if (typeof parsed !== "object" || parsed === null) return config;
  const { auths, credHelpers, credsStore } = parsed as Record<string, unknown>;
  for (const [server, entry] of Object.entries(typeof auths === "object" && auths !== null ? auths : {})) {
    const fields = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    const found =
      typeof fields.auth === "string" && fields.auth !== ""
        ? decodeAuth(fields.auth)
        : typeof fields.username === "string" && typeof fields.password === "string"
          ? { username: fields.username, password: fields.password }
          : undefined;
    if (found) config.entries.set(serverKey(server), found);
  }
  for (const [server, helper] of Object.entries(typeof credHelpers === "object" && credHelpers !== null ? credHelpers : {})) {
    if (typeof helper === "string") config.helpers.set(serverKey(server), helper);
  }
  if (typeof credsStore === "string" && credsStore !== "") config.store = credsStore;
  return config;
}

/** Finds the credentials for registries, reading the docker config file once, on first need. */
export class RegistryCredentials {
  private readonly registryAuth: readonly RegistryCredential[];
  private readonly dockerConfigFile: string | false;
  private dockerConfig: DockerConfig | undefined;

  constructor(options: CredentialOptions = {}) {
    this.registryAuth = options.registryAuth ?? [];
    this.dockerConfigFile = options.dockerConfigFile ?? defaultDockerConfigFile();
  }

  /** The credential for `registry` (a reference's registry name), or why there is none. */
  lookup(registry: string): CredentialLookup {
    const key = serverKey(registry);
    const given = this.registryAuth.find((entry) => serverKey(entry.server) === key);
    if (given) return { credential: { username: given.username, password: given.password, source: REGISTRY_AUTH_SETTING } };
    if (this.dockerConfigFile === false) return {};
    this.dockerConfig ??= readDockerConfig(this.dockerConfigFile);
    const { entries, helpers, store, problem } = this.dockerConfig;
    const entry = entries.get(key);
    if (entry) return { credential: { ...entry, source: `the docker config file ${this.dockerConfigFile}` } };
    const helper = helpers.get(key) ?? store;
    if (helper !== undefined) {
      return { hint: `the docker config file ${this.dockerConfigFile} keeps them in the credential helper docker-credential-${helper}, which the provider does not run` };
    }
    return problem === undefined ? {} : { hint: problem };
  }
}
