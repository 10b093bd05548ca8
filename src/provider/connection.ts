/**
 * The provider process's client: settings from the stack config handed to
 * `configure` (or the environment), one keep-alive client per settings.
 * Lives only in the provider process's memory, never in state.
 */
import { AgentHostingClient } from "../client/client";
import { resolveSettings, type ConfigSource } from "../config";
import { reportNote, reportRetry } from "./engine-log";

export { reportNote };

let configured: ConfigSource | undefined;
let cached: { key: string; client: AgentHostingClient } | undefined;

export function setProviderConfig(config: ConfigSource | undefined): void {
  configured = config;
}

export function providerClient(): AgentHostingClient {
  const settings = resolveSettings(configured);
  const cacheKey = `${settings.baseUrl}\u0000${settings.apiKey}`;
  if (cached?.key !== cacheKey) {
    void cached?.client.close();
    cached = {
      key: cacheKey,
      client: new AgentHostingClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, onRetry: reportRetry }),
    };
  }
  return cached.client;
}
