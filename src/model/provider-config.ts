/**
 * The provider's settings: the stack config keys, the environment fallbacks,
 * and how the package schema describes them (the key is a secret).
 */
/** The namespace of the provider's stack config keys. */
export const CONFIG_NAMESPACE = "agent-hosting";

/** A setting of the stack config only (no provider input): plain http to a host other than loopback, by deliberate choice. */
export const ALLOW_INSECURE_HTTP_SETTING = {
  configKey: `${CONFIG_NAMESPACE}:allowInsecureHttp`,
  env: "AGENT_HOSTING_ALLOW_INSECURE_HTTP",
} as const;

export const PROVIDER_CONFIG_FIELDS = [
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
] as const;

export type ProviderConfigName = (typeof PROVIDER_CONFIG_FIELDS)[number]["name"];

/** The field of a provider setting. */
export function providerConfigField(name: ProviderConfigName): (typeof PROVIDER_CONFIG_FIELDS)[number] {
  const field = PROVIDER_CONFIG_FIELDS.find((f) => f.name === name);
  if (!field) throw new Error(`no provider setting ${name}`);
  return field;
}
