/** What a unit test gives `agentHostingMocks` (src/testing/index.ts). */
import type * as pulumi from "@pulumi/pulumi";

/** One log line of an agent: its text, or the text with its time (ISO 8601) and deployment. */
export type MockLogLine = string | { log: string; timestamp?: string; deploymentId?: string };

export interface AgentHostingMocksOptions {
  /**
   * The secret sets the service holds: set name → its field names. Given,
   * an Agent naming a set not listed here, or a `requiredSecrets` field its
   * set lacks, is refused as the preview refuses it, and `getSecretSet`
   * answers from these sets. Left out, the references are not checked and
   * every `getSecretSet` fails as for a set that does not exist.
   */
  secretSets?: Record<string, readonly string[]>;
  /**
   * Log lines per agent name, oldest first: `getAgentLogs` answers from them
   * with its `limit`, `offset`, `order`, `query`, `deploymentId`,
   * `startTime` and `endTime` applied as the service applies them.
   */
  logs?: Record<string, readonly MockLogLine[]>;
  /**
   * Digests per image as written (`sha256:…`): a tag-form image an Agent
   * pins, and `getImageDigest`, name the digest given here; an image not
   * listed names one derived from its text (`sha256:` and its SHA-256), the
   * same in every run.
   */
  imageDigests?: Record<string, string>;
  /**
   * Whether an Agent that leaves `pinImageDigest` out pins its tag-form
   * image, as the stack's `agent-hosting:pinImageDigests` says: true when
   * left out.
   */
  pinImageDigests?: boolean;
  /** The test's own mocks, for every other resource type and call. Left out, other resources echo their inputs and other calls fail. */
  mocks?: pulumi.runtime.Mocks;
}
