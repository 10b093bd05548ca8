/** Settings for the function data sources, read in the program process at call time. */
import * as pulumi from "@pulumi/pulumi";
import type { AgentHostingClient } from "../client/client";
import { warnIfKeyInPlainText } from "../core/plain-key-warning";
import { programClientStandIn } from "../core/program-client-stand-in";
import { resolveConnection } from "../core/settings";
import type { Connection, ConfigSource } from "../core/settings";
import { programCallError } from "./program-call-error";

/**
 * Runs `fn` with a client built from stack config or the environment, closed
 * afterwards. The client module (and undici) is loaded on first use, so a
 * program that only declares agents does not pay for it. Every failure of the
 * service or the settings becomes one line naming `call` (a RunError, which
 * Pulumi prints without a stack trace). Under the package's unit-test mocks
 * the mocks' stand-in answers instead (src/core/program-client-stand-in.ts).
 */
export async function withProgramClient<T>(call: string, fn: (client: AgentHostingClient) => Promise<T>): Promise<T> {
  const standIn = programClientStandIn();
  if (standIn !== undefined) return fn(standIn);
  const config: ConfigSource = { get: (key) => pulumi.runtime.getConfig(key) };
  warnIfKeyInPlainText();
  let connection: Connection;
  try {
    connection = resolveConnection(config);
  } catch (error) {
    throw programCallError(call, error, "", "");
  }
  const { settings, sources } = connection;
  const { AgentHostingClient: Client } = await import("../client/client");
  const client = new Client({ ...settings });
  try {
    return await fn(client);
  } catch (error) {
    throw programCallError(call, error, settings.baseUrl, sources.baseUrlSetting);
  } finally {
    await client.close();
  }
}
