/**
 * The provider's settings: the stack config keys, the environment fallbacks,
 * and how the package schema describes them (the key is a secret).
 */
export const PROVIDER_CONFIG_FIELDS = [
  {
    name: "apiKey",
    type: "string",
    secret: true,
    configKey: "agent-hosting:apiKey",
    env: "AGENT_HOSTING_API_KEY",
    description: "API key of the Agent Hosting Service account. Falls back to the environment variable AGENT_HOSTING_API_KEY.",
  },
  {
    name: "baseUrl",
    type: "string",
    secret: false,
    configKey: "agent-hosting:baseUrl",
    env: "AGENT_HOSTING_BASE_URL",
    description:
      "Base URL of the service, ending in the version segment, e.g. https://api.example.com/v1. Falls back to the environment variable AGENT_HOSTING_BASE_URL.",
  },
] as const;
