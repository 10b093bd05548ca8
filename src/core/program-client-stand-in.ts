/**
 * The client the package root's functions use in a program process under
 * unit-test mocks: `agentHostingMocks` (src/testing/index.ts) sets it when the
 * test creates its mocks, so `getSecretSet`, `getAgentLogs` and their Output
 * forms answer from the mocked sets and log lines instead of asking a service
 * (src/functions/program-client.ts). Kept on the process under a registered
 * symbol, so a second copy of the package in the same process finds it too.
 */
import type { AgentHostingClient } from "../client/client";

const KEY = Symbol.for("pulumi-agent-hosting.program-client-stand-in");
type Holder = { [KEY]?: AgentHostingClient | undefined };

export function setProgramClientStandIn(client: AgentHostingClient | undefined): void {
  (globalThis as Holder)[KEY] = client;
}

export function programClientStandIn(): AgentHostingClient | undefined {
  return (globalThis as Holder)[KEY];
}
