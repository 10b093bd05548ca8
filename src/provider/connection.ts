/**
 * The provider process's client: settings from the stack config handed to
 * `configure` (or the environment), one keep-alive client per settings.
 * Lives only in the provider process's memory, never in state.
 */
import type { Dispatcher } from "undici";
import { AgentHostingClient, type AgentHostingClientOptions } from "../client/client";
import { resolveSettings, type ConfigSource } from "../config";
import { reportInfo, reportNote, reportRetry } from "./engine-log";

export { reportInfo, reportNote };

let configured: ConfigSource | undefined;
let cached: { key: string; client: AgentHostingClient } | undefined;
let dispatcher: Dispatcher | undefined;
let retryDelays: Pick<AgentHostingClientOptions, "retryBaseDelayMs" | "retryMaxDelayMs"> = {};

/** For tests: route the provider's requests through an undici MockAgent (or back to the network), with short retry delays. */
export function useDispatcher(next: Dispatcher | undefined, delays: typeof retryDelays = {}): void {
  dispatcher = next;
  retryDelays = delays;
  cached = undefined;
}

export function setProviderConfig(config: ConfigSource | undefined): void {
  configured = config;
}

export function providerClient(): AgentHostingClient {
  const settings = resolveSettings(configured);
  const cacheKey = `${settings.baseUrl}\u0000${settings.apiKey}`;
  if (cached?.key !== cacheKey) {
    void cached?.client.close();
    const options: AgentHostingClientOptions = { baseUrl: settings.baseUrl, apiKey: settings.apiKey, onRetry: reportRetry, ...retryDelays };
    if (dispatcher) options.dispatcher = dispatcher;
    cached = { key: cacheKey, client: new AgentHostingClient(options) };
  }
  return cached.client;
}
