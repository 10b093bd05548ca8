/** What every verb that talks to the service is handed by its provider object. */
import type { AgentHostingClient } from "../client/client";
import type { ProviderLog } from "./engine-log";
import type { PollGate } from "./poll-gate";

export type Props = Record<string, unknown>;

export interface VerbContext {
  /** The provider's configured client. */
  client: AgentHostingClient;
  log: ProviderLog;
  /** Aborted by Cancel or SIGINT: the polls and requests in flight end, and the step answers with what it has. */
  signal: AbortSignal;
  /** The provider's one gate for readiness polls. */
  gate: PollGate;
}
