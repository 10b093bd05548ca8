/**
 * The provider's settings, resolved in one place for both hosts and for the
 * functions run in the program: the stack config keys, their environment
 * fallbacks, their rules, and how the package schema describes them.
 *
 * Read at call time, never captured: the API key must not reach the
 * serialized provider, the state, logs or error messages.
 */
import { checkApiKey, checkBaseUrl } from "../client/connection-settings";
import type { SettingNames } from "../client/connection-settings";
import { ConfigurationError } from "../client/errors";

/** The namespace of the provider's stack config keys (the package name of the native provider). */
export const CONFIG_NAMESPACE = "agent-hosting";

/** Each setting: its provider input, stack config key, environment fallback and schema description. */
export const PROVIDER_SETTINGS = [
  {
    name: "apiKey",
    type: "string",
    secret: true,
    configKey: `${CONFIG_NAMESPACE}:apiKey`,
    env: "AGENT_HOSTING_API_KEY",
    description: "API key of the Agent Hosting Service account. Falls back to the environment variable AGENT_HOSTING_API_KEY.",
  },
  {
    name: "baseUrl",
    type: "string",
    secret: false,
    configKey: `${CONFIG_NAMESPACE}:baseUrl`,
    env: "AGENT_HOSTING_BASE_URL",
    description:
      "Base URL of the service, ending in the version segment, e.g. https://api.example.com/v1. Falls back to the environment variable AGENT_HOSTING_BASE_URL.",
  },
  {
    name: "allowInsecureHttp",
    type: "boolean",
    secret: false,
    configKey: `${CONFIG_NAMESPACE}:allowInsecureHttp`,
    env: "AGENT_HOSTING_ALLOW_INSECURE_HTTP",
    description:
      "Allows a plain http:// base URL to a host other than loopback (the API key then travels unencrypted), and plain http to an image registry other than loopback. Falls back to the environment variable AGENT_HOSTING_ALLOW_INSECURE_HTTP.",
  },
  {
    name: "registryAuth",
    type: "string",
    secret: true,
    configKey: `${CONFIG_NAMESPACE}:registryAuth`,
    env: "AGENT_HOSTING_REGISTRY_AUTH",
    description:
      'Credentials of image registries, used only to resolve image digests: a JSON list such as `[{"server": "ghcr.io", "username": "USER", "password": "TOKEN"}]`, set with `--secret`. Registries it does not name use the docker config file (DOCKER_CONFIG or ~/.docker/config.json). Falls back to the environment variable AGENT_HOSTING_REGISTRY_AUTH.',
  },
  {
    name: "pinImageDigests",
    type: "boolean",
    secret: false,
    configKey: `${CONFIG_NAMESPACE}:pinImageDigests`,
    env: "AGENT_HOSTING_PIN_IMAGE_DIGESTS",
    description:
      "Whether an Agent's tag-form image is resolved to its digest at preview and sent as `name@sha256:…` when the Agent does not say (its `pinImageDigest`); default true. Falls back to the environment variable AGENT_HOSTING_PIN_IMAGE_DIGESTS.",
  },
] as const;

export type ProviderSettingName = (typeof PROVIDER_SETTINGS)[number]["name"];

function setting(name: ProviderSettingName): (typeof PROVIDER_SETTINGS)[number] {
  const found = PROVIDER_SETTINGS.find((f) => f.name === name);
  if (!found) throw new Error(`no provider setting ${name}`);
  return found;
}

export const API_KEY_CONFIG = setting("apiKey").configKey;
export const BASE_URL_CONFIG = setting("baseUrl").configKey;
export const ALLOW_INSECURE_HTTP_CONFIG = setting("allowInsecureHttp").configKey;
export const API_KEY_ENV = setting("apiKey").env;
export const BASE_URL_ENV = setting("baseUrl").env;
export const ALLOW_INSECURE_HTTP_ENV = setting("allowInsecureHttp").env;
export const REGISTRY_AUTH_CONFIG = setting("registryAuth").configKey;
export const REGISTRY_AUTH_ENV = setting("registryAuth").env;
export const PIN_IMAGE_DIGESTS_CONFIG = setting("pinImageDigests").configKey;
export const PIN_IMAGE_DIGESTS_ENV = setting("pinImageDigests").env;

const OPT_IN = `run \`pulumi config set ${ALLOW_INSECURE_HTTP_CONFIG} true\` or set ${ALLOW_INSECURE_HTTP_ENV}=true`;

export interface Settings {
  apiKey: string;
  baseUrl: string;
  /** Present (true) only when plain http to a non-loopback host was allowed deliberately. */
  allowInsecureHttp?: true;
}

/** The names of the settings the key and the URL came from, for error messages (never the key itself). */
export interface SettingSources {
  /** `agent-hosting:apiKey` or `AGENT_HOSTING_API_KEY`. */
  apiKeySetting: string;
  /** `agent-hosting:baseUrl` or `AGENT_HOSTING_BASE_URL`. */
  baseUrlSetting: string;
}

/** Anything with `get(key)`: the dynamic provider's config bag, the native provider's inputs, or a map. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/** A value that is set: unset, empty and all-whitespace values count as missing. */
function setValue(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/**
 * How the connection rules (src/client/connection-settings.ts, the client's
 * own) name the settings in their messages, for a base URL taken from
 * `baseUrlFrom` (a config key, a provider input or a variable) and a key
 * from `apiKeyFrom`.
 */
export function settingNames(baseUrlFrom: string, apiKeyFrom = baseUrlFrom === BASE_URL_ENV ? API_KEY_ENV : API_KEY_CONFIG): SettingNames {
  return { baseUrl: baseUrlFrom, apiKey: apiKeyFrom, insecureHttpOptIn: OPT_IN };
}

/** A true/false setting; anything else is an error naming `from`. */
export function flagSetting(raw: string | undefined, from: string): boolean | undefined {
  const value = setValue(raw)?.trim().toLowerCase();
  if (value === undefined) return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  throw new ConfigurationError(`${from}: must be true or false, got "${raw}"`);
}

/** Whether plain http to any host is allowed: stack config (or provider input) first, then the environment. */
export function insecureHttpAllowed(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    flagSetting(config?.get(ALLOW_INSECURE_HTTP_CONFIG), ALLOW_INSECURE_HTTP_CONFIG) ??
    flagSetting(env[ALLOW_INSECURE_HTTP_ENV], ALLOW_INSECURE_HTTP_ENV) ??
    false
  );
}

/** The settings, checked, and which settings the key and the URL came from. */
export interface Connection {
  settings: Settings;
  sources: SettingSources;
}

/**
 * Resolves the API key, the base URL and the plain-http opt-in: stack config
 * (or the native provider's inputs) first, then the environment. A missing
 * setting names both ways to set it; a malformed one names the setting it
 * came from and the fix.
 */
export function resolveSettings(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): Settings {
  return resolveConnection(config, env).settings;
}

/** resolveSettings, with the sources of the key and the URL that error messages name. */
export function resolveConnection(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): Connection {
  const configKey = setValue(config?.get(API_KEY_CONFIG));
  const apiKey = configKey ?? setValue(env[API_KEY_ENV]);
  const configUrl = setValue(config?.get(BASE_URL_CONFIG));
  const envUrl = setValue(env[BASE_URL_ENV]);
  const missing: string[] = [];
  if (!apiKey) {
    missing.push(
      `the API key is not set: run \`pulumi config set --secret ${API_KEY_CONFIG} <key>\` or set the environment variable ${API_KEY_ENV}`,
    );
  }
  if (!configUrl && !envUrl) {
    missing.push(
      `the base URL is not set: run \`pulumi config set ${BASE_URL_CONFIG} https://<host>/v1\` or set the environment variable ${BASE_URL_ENV}`,
    );
  }
  if (missing.length > 0 || !apiKey) throw new ConfigurationError(missing.join("; "));
  const allowInsecureHttp = insecureHttpAllowed(config, env);
  const baseUrlSetting = configUrl ? BASE_URL_CONFIG : BASE_URL_ENV;
  const baseUrl = checkBaseUrl((configUrl ?? envUrl ?? "").trim(), settingNames(baseUrlSetting), allowInsecureHttp);
  const apiKeySetting = configKey !== undefined ? API_KEY_CONFIG : API_KEY_ENV;
  checkApiKey(apiKey, settingNames(BASE_URL_CONFIG, apiKeySetting));
  const settings: Settings = allowInsecureHttp ? { apiKey, baseUrl, allowInsecureHttp: true } : { apiKey, baseUrl };
  return { settings, sources: { apiKeySetting, baseUrlSetting } };
}

/**
 * Whether an Agent that does not say (its `pinImageDigest`) pins its
 * tag-form image to a digest: stack config (or provider input) first, then
 * the environment, else true. Pinning is on by default so that a pushed tag
 * is a change; the emulator's fake images (registry.example.com) are in no
 * registry, so its tests and the demo turn it off for the whole stack.
 */
export function pinImageDigestsByDefault(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    flagSetting(config?.get(PIN_IMAGE_DIGESTS_CONFIG), PIN_IMAGE_DIGESTS_CONFIG) ??
    flagSetting(env[PIN_IMAGE_DIGESTS_ENV], PIN_IMAGE_DIGESTS_ENV) ??
    true
  );
}

/** The registry credentials setting as given (a JSON list, never logged): stack config first, then the environment. */
export function registryAuthText(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): { text: string; from: string } | undefined {
  const configured = setValue(config?.get(REGISTRY_AUTH_CONFIG));
  if (configured !== undefined) return { text: configured, from: REGISTRY_AUTH_CONFIG };
  const fromEnv = setValue(env[REGISTRY_AUTH_ENV]);
  return fromEnv === undefined ? undefined : { text: fromEnv, from: REGISTRY_AUTH_ENV };
}
