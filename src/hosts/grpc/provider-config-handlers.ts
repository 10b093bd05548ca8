/**
 * The provider resource's configuration: `apiKey`, `baseUrl`,
 * `allowInsecureHttp`, `registryAuth` and `pinImageDigests`, given as inputs of an explicit provider or, for the
 * default provider, from the stack config `agent-hosting:<name>` (the engine
 * turns those into the default provider's inputs). What is not set falls back
 * to the environment, as in the dynamic provider (src/core/settings.ts
 * resolves both).
 */
import { checkBaseUrl } from "../../client/connection-settings";
import { CONFIG_NAMESPACE, PROVIDER_SETTINGS, flagSetting, insecureHttpAllowed, settingNames } from "../../core/settings";
import type { ConfigSource } from "../../core/settings";
import type { RuleFailure } from "../../client/field-rules";
import { parseRegistryAuth } from "../../image-registry/registry-auth-setting";
import { containsUnknown } from "./struct-values";
import type { Props } from "./struct-values";

/** The provider inputs this plugin reads, by stack config key. */
const INPUT_OF_CONFIG_KEY: Record<string, string> = Object.fromEntries(PROVIDER_SETTINGS.map((f) => [f.configKey, f.name]));

/** Inputs the engine itself adds to every provider resource. */
const ENGINE_INPUTS = new Set(["version", "pluginDownloadURL"]);
const SETTING_NAMES: readonly string[] = PROVIDER_SETTINGS.map((f) => f.name);
const settingType = (name: string) => PROVIDER_SETTINGS.find((f) => f.name === name)?.type;

/**
 * A setting's value as config text: strings as they are, true and false as
 * words (YAML and the SDKs send booleans), a list (registryAuth written as
 * structured config) as JSON.
 */
function asText(value: unknown): string | undefined {
  if (typeof value === "string" && !containsUnknown(value)) return value;
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value) && !containsUnknown(value)) return JSON.stringify(value);
  return undefined;
}

/**
 * A ConfigSource over Configure's inputs; the deprecated `variables` map
 * (keyed `agent-hosting:config:<name>`) is read when the inputs lack a value.
 */
export function configSource(args: Props, variables: ReadonlyMap<string, string>): ConfigSource {
  return {
    get(key) {
      const input = INPUT_OF_CONFIG_KEY[key];
      if (input === undefined) return undefined;
      return asText(args[input]) ?? variables.get(`${CONFIG_NAMESPACE}:config:${input}`);
    },
  };
}

/** The reason a given setting breaks its rule, or undefined. `news` gives the other settings (the opt-in for baseUrl). */
function settingProblem(name: string, value: unknown, news: Props): string | undefined {
  const text = asText(value);
  if (settingType(name) === "boolean") {
    try {
      flagSetting(text ?? String(value), name);
      return undefined;
    } catch {
      return `${name} must be true or false`;
    }
  }
  if (name === "registryAuth") {
    try {
      parseRegistryAuth(value, "registryAuth");
      return undefined;
    } catch (error) {
      // The message names the entry and the field, never a value.
      return (error instanceof Error ? error.message : String(error)).replace(/^registryAuth: /, "");
    }
  }
  if (typeof value !== "string") return `${name} must be a string`;
  if (name !== "baseUrl") return undefined;
  try {
    const allowed = insecureHttpAllowed(configSource(news, new Map()));
    checkBaseUrl(value.trim(), settingNames("baseUrl"), allowed);
    return undefined;
  } catch (error) {
    // The message starts with the setting's name, which the failure already carries.
    return (error instanceof Error ? error.message : String(error)).replace(/^baseUrl: /, "");
  }
}

/**
 * CheckConfig: each setting has its type; a given baseUrl must be a service
 * URL ending in /v1, over https unless it is loopback or plain http is
 * allowed. A missing key is not an error here: the environment may supply it,
 * and it is named when the first request needs it.
 */
export function checkProviderConfig(news: Props): RuleFailure[] {
  const failures: RuleFailure[] = [];
  for (const [name, value] of Object.entries(news)) {
    if (ENGINE_INPUTS.has(name) || value === undefined || value === null || containsUnknown(value)) continue;
    const reason = SETTING_NAMES.includes(name)
      ? settingProblem(name, value, news)
      : `"${name}" is not a setting of the agent-hosting provider; the settings are ${SETTING_NAMES.slice(0, -1).join(", ")} and ${SETTING_NAMES.at(-1)}`;
    if (reason !== undefined) failures.push({ property: name, reason });
  }
  return failures;
}

/** DiffConfig: the settings that changed. None replaces the provider, so its resources are not replaced either. */
export function changedProviderConfig(olds: Props, news: Props): string[] {
  return SETTING_NAMES.filter((name) => JSON.stringify(olds[name] ?? null) !== JSON.stringify(news[name] ?? null));
}
