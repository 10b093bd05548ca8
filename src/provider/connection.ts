/**
 * The client a provider object talks through: settings from the stack config
 * handed to `configure` (or the environment), resolved and the client made at
 * the first call that needs it. Lives only in the provider process's memory,
 * never in state.
 */
import type { AgentHostingClient, AgentHostingClientOptions } from "../client/client";
import { resolveSettings, type ConfigSource } from "../config";
import type { ProviderLog } from "./engine-log";

/** Client options beyond the settings: a dispatcher (an undici MockAgent in tests), retry delays. */
export type ExtraClientOptions = Omit<AgentHostingClientOptions, "baseUrl" | "apiKey" | "allowInsecureHttp" | "onRetry">;

/** A memoized maker of the client for `config`; retries are told to `log`. */
export function clientMaker(config: ConfigSource | undefined, log: ProviderLog, extra: ExtraClientOptions = {}): () => Promise<AgentHostingClient> {
  let made: Promise<AgentHostingClient> | undefined;
  return () => {
    made ??= (async () => {
      const settings = resolveSettings(config);
      const { AgentHostingClient } = await import("../client/client");
      return new AgentHostingClient({ ...extra, ...settings, onRetry: (note) => log.retry(note) });
    })();
    return made;
  };
}
