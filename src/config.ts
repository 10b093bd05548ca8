/**
 * Settings from stack config or the environment.
 *
 * Read at call time, never captured: the API key must not reach the
 * serialized provider, the state, logs or error messages.
 */
import { checkApiKey, checkBaseUrl as checkUrl, type SettingNames } from "./client/connection-settings";
import { ConfigurationError } from "./client/errors";
import { ALLOW_INSECURE_HTTP_SETTING, CONFIG_NAMESPACE, providerConfigField } from "./model/provider-config";

export { CONFIG_NAMESPACE };
export const API_KEY_CONFIG = providerConfigField("apiKey").configKey;
export const BASE_URL_CONFIG = providerConfigField("baseUrl").configKey;
export const ALLOW_INSECURE_HTTP_CONFIG = ALLOW_INSECURE_HTTP_SETTING.configKey;
export const API_KEY_ENV = providerConfigField("apiKey").env;
export const BASE_URL_ENV = providerConfigField("baseUrl").env;
export const ALLOW_INSECURE_HTTP_ENV = ALLOW_INSECURE_HTTP_SETTING.env;

const OPT_IN = `run \`pulumi config set ${ALLOW_INSECURE_HTTP_CONFIG} true\` or set ${ALLOW_INSECURE_HTTP_ENV}=true`;

export interface Settings {
  apiKey: string;
  baseUrl: string;
  /** Present (true) only when plain http to a non-loopback host was allowed deliberately. */
  allowInsecureHttp?: true;
}

/** Anything with `get(key)`: the dynamic provider's config bag or a map. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/** A value that is set: unset, empty and all-whitespace values count as missing. */
function setValue(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** Returns the base URL without a trailing slash, or throws naming `from` (a config key or variable) and the rule. */
export function checkBaseUrl(raw: string, from: string, allowInsecureHttp = false): string {
  const names: SettingNames = {
    baseUrl: from,
    apiKey: from === BASE_URL_ENV ? API_KEY_ENV : API_KEY_CONFIG,
    insecureHttpOptIn: OPT_IN,
  };
  return checkUrl(raw.trim(), names, allowInsecureHttp);
}

function flag(raw: string | undefined, from: string): boolean | undefined {
  const value = setValue(raw)?.trim().toLowerCase();
  if (value === undefined) return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  throw new ConfigurationError(`${from}: must be true or false, got "${raw}"`);
}

/** Which setting the base URL is taken from: stack config wins over the environment. */
export function baseUrlSource(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): string {
  return setValue(config?.get(BASE_URL_CONFIG)) !== undefined || setValue(env[BASE_URL_ENV]) === undefined
    ? BASE_URL_CONFIG
    : BASE_URL_ENV;
}

/**
 * Resolves the API key and base URL: stack config first, then the
 * environment. A missing setting names both ways to set it; a malformed one
 * names the setting it came from and the fix.
 */
export function resolveSettings(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): Settings {
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
  const allowInsecureHttp =
    flag(config?.get(ALLOW_INSECURE_HTTP_CONFIG), ALLOW_INSECURE_HTTP_CONFIG) ??
    flag(env[ALLOW_INSECURE_HTTP_ENV], ALLOW_INSECURE_HTTP_ENV) ??
    false;
  const baseUrl = configUrl
    ? checkBaseUrl(configUrl, BASE_URL_CONFIG, allowInsecureHttp)
    : checkBaseUrl(envUrl as string, BASE_URL_ENV, allowInsecureHttp);
  checkApiKey(apiKey, {
    baseUrl: BASE_URL_CONFIG,
    apiKey: configKey !== undefined ? API_KEY_CONFIG : API_KEY_ENV,
    insecureHttpOptIn: OPT_IN,
  });
  return allowInsecureHttp ? { apiKey, baseUrl, allowInsecureHttp: true } : { apiKey, baseUrl };
}
