/** Settings for the function data sources, read in the program process at call time. */
import * as pulumi from "@pulumi/pulumi";
import { AgentHostingClient } from "../client/client";
import { resolveSettings } from "../config";

/** Runs `fn` with a client built from stack config or the environment, closed afterwards. */
export async function withProgramClient<T>(fn: (client: AgentHostingClient) => Promise<T>): Promise<T> {
  const settings = resolveSettings({ get: (key) => pulumi.runtime.getConfig(key) });
  const client = new AgentHostingClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}
