/** Settings for the function data sources, read in the program process at call time. */
import * as pulumi from "@pulumi/pulumi";
import type { AgentHostingClient } from "../client/client";
import { resolveSettings } from "../config";

/**
 * Runs `fn` with a client built from stack config or the environment, closed
 * afterwards. The client module (and undici) is loaded on first use, so a
 * program that only declares agents does not pay for it.
 */
export async function withProgramClient<T>(fn: (client: AgentHostingClient) => Promise<T>): Promise<T> {
  const settings = resolveSettings({ get: (key) => pulumi.runtime.getConfig(key) });
  const { AgentHostingClient: Client } = await import("../client/client");
  const client = new Client({ baseUrl: settings.baseUrl, apiKey: settings.apiKey });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}
