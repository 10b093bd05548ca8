/**
 * The client the package root's functions use in a program process under
 * unit-test mocks: `agentHostingMocks` (src/testing/index.ts) sets it when the
 * test creates its mocks, so `getSecretSet`, `getAgentLogs` and their Output
 * forms answer from the mocked sets and log lines instead of asking a service
 * (src/functions/program-client.ts), and `getImageDigest` from the mocked
 * digests instead of a registry (src/functions/get-image-digest.ts). Kept on the process under a registered
 * symbol, so a second copy of the package in the same process finds it too.
 */
import type { AgentHostingClient } from "../client/client";
import type { ImageDigestLookup } from "./image-digest-lookup";

const KEY = Symbol.for("pulumi-agent-hosting.program-client-stand-in");
const DIGESTS_KEY = Symbol.for("pulumi-agent-hosting.program-image-digests-stand-in");
type Holder = { [KEY]?: AgentHostingClient | undefined; [DIGESTS_KEY]?: ImageDigestLookup | undefined };

export function setProgramClientStandIn(client: AgentHostingClient | undefined): void {
  (globalThis as Holder)[KEY] = client;
}

export function programClientStandIn(): AgentHostingClient | undefined {
  return (globalThis as Holder)[KEY];
}

/** The image digests the package root's getImageDigest answers from under the mocks, in place of a registry. */
export function setProgramImageDigestsStandIn(digests: ImageDigestLookup | undefined): void {
  (globalThis as Holder)[DIGESTS_KEY] = digests;
}

export function programImageDigestsStandIn(): ImageDigestLookup | undefined {
  return (globalThis as Holder)[DIGESTS_KEY];
}
