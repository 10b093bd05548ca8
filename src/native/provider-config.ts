/**
 * The provider resource's configuration: `apiKey` and `baseUrl`, given as
 * inputs of an explicit provider or, for the default provider, from the
 * stack config `agent-hosting:apiKey` / `agent-hosting:baseUrl` (the engine
 * turns those into the default provider's inputs). What is not set falls back
 * to the environment, as in the dynamic provider (config.ts resolves it).
 */
import { CONFIG_NAMESPACE, checkBaseUrl, type ConfigSource } from "../config";
import { PROVIDER_CONFIG_FIELDS } from "../model";
import { containsUnknown, type Props } from "./values";

export interface ConfigFailure {
  property: string;
  reason: string;
}

/** The provider inputs this plugin reads, by stack config key. */
const INPUT_OF_CONFIG_KEY: Record<string, string> = Object.fromEntries(PROVIDER_CONFIG_FIELDS.map((f) => [f.configKey, f.name]));

/** Inputs the engine itself adds to every provider resource. */
const ENGINE_INPUTS = new Set(["version", "pluginDownloadURL"]);
const CONFIG_INPUTS = new Set<string>(PROVIDER_CONFIG_FIELDS.map((f) => f.name));

/**
 * A ConfigSource over Configure's inputs; the deprecated `variables` map
 * (keyed `agent-hosting:config:<name>`) is read when the inputs lack a value.
 */
export function configSource(args: Props, variables: ReadonlyMap<string, string>): ConfigSource {
  return {
    get(key) {
      const input = INPUT_OF_CONFIG_KEY[key];
      if (input === undefined) return undefined;
      const value = args[input];
      if (typeof value === "string" && !containsUnknown(value)) return value;
      return variables.get(`${CONFIG_NAMESPACE}:config:${input}`);
    },
  };
}

/**
 * CheckConfig: each setting must be a string; a given baseUrl must be a
 * service URL ending in /v1. A missing key is not an error here: the
 * environment may supply it, and it is named when the first request needs it.
 */
export function checkProviderConfig(news: Props): ConfigFailure[] {
  const failures: ConfigFailure[] = [];
  for (const [name, value] of Object.entries(news)) {
    if (ENGINE_INPUTS.has(name) || value === undefined || value === null || containsUnknown(value)) continue;
    if (!CONFIG_INPUTS.has(name)) {
      failures.push({ property: name, reason: `"${name}" is not a setting of the agent-hosting provider; the settings are ${[...CONFIG_INPUTS].join(" and ")}` });
    } else if (typeof value !== "string") {
      failures.push({ property: name, reason: `${name} must be a string` });
    } else if (name === "baseUrl") {
      try {
        checkBaseUrl(value, "baseUrl");
      } catch (error) {
        // The message starts with the setting's name, which the failure already carries.
        const message = error instanceof Error ? error.message : String(error);
        failures.push({ property: name, reason: message.replace(/^baseUrl: /, "") });
      }
    }
  }
  return failures;
}

/** DiffConfig: the settings that changed. None replaces the provider, so its resources are not replaced either. */
export function changedProviderConfig(olds: Props, news: Props): string[] {
  return [...CONFIG_INPUTS].filter((name) => JSON.stringify(olds[name] ?? null) !== JSON.stringify(news[name] ?? null));
}
