/**
 * Settings from stack config or the environment (design section 3).
 *
 * Read at call time, never captured: the API key must not reach the
 * serialized provider, the state, logs or error messages.
 */
import { ConfigurationError } from "./client/errors";

export const CONFIG_NAMESPACE = "agent-hosting";
export const API_KEY_CONFIG = `${CONFIG_NAMESPACE}:apiKey`;
export const BASE_URL_CONFIG = `${CONFIG_NAMESPACE}:baseUrl`;
export const API_KEY_ENV = "AGENT_HOSTING_API_KEY";
export const BASE_URL_ENV = "AGENT_HOSTING_BASE_URL";

export interface Settings {
  apiKey: string;
  baseUrl: string;
}

/** Anything with `get(key)`: the dynamic provider's config bag or a map. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** Returns the base URL without a trailing slash, or throws naming the rule. */
export function checkBaseUrl(raw: string, from: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(`${from}: "${raw}" is not a URL; expected for example https://api.example.com/v1`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`${from}: must use http or https, got "${url.protocol.replace(":", "")}"`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(`${from}: must not carry credentials; set the API key with ${API_KEY_CONFIG}`);
  }
  if (url.search || url.hash) {
    throw new ConfigurationError(`${from}: must not carry a query or fragment`);
  }
  const trimmed = url.toString().replace(/\/+$/, "");
  if (!trimmed.endsWith("/v1")) {
    throw new ConfigurationError(`${from}: must end with the version segment /v1, got "${trimmed}"`);
  }
  return trimmed;
}

/**
 * Resolves the API key and base URL: stack config first, then the
 * environment. A missing setting names both ways to set it.
 */
export function resolveSettings(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): Settings {
  const apiKey = nonEmpty(config?.get(API_KEY_CONFIG)) ?? nonEmpty(env[API_KEY_ENV]);
  const configUrl = nonEmpty(config?.get(BASE_URL_CONFIG));
  const envUrl = nonEmpty(env[BASE_URL_ENV]);
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
  const baseUrl = configUrl
    ? checkBaseUrl(configUrl, BASE_URL_CONFIG)
    : checkBaseUrl(envUrl as string, BASE_URL_ENV);
  return { apiKey, baseUrl };
}
