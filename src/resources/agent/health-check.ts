/**
 * The health check of a new deployment (the `healthCheck` input): once the
 * deployment is ready, its logs are read (`deploymentId`, `query` =
 * `failOnLogQuery`) every second for `watchSeconds`; a matching line is a
 * failure. A read that fails in a way the client's rules call transient is
 * read again at the next second; the last read's failure ends the check.
 * When the operation's own limit (the engine's customTimeouts) ends first,
 * the check is unfinished, which is a failure too: the deployment was not
 * watched as long as the program asks.
 */
import type { AgentHostingClient } from "../../client/client";
import { HEALTH_READ_INTERVAL_MS } from "../../client/delays";
import { isTransientPollFailure } from "../../client/retry";
import { abortableSleep } from "../../core/abortable-sleep";

export interface HealthCheck {
  failOnLogQuery: string;
  watchSeconds: number;
}

export interface HealthWatch {
  client: Pick<AgentHostingClient, "getAgentLogs">;
  agentName: string;
  deploymentId: string;
  check: HealthCheck;
  signal: AbortSignal;
  /** How long the watch may last at most (what is left of the operation's limit); default watchSeconds. */
  limitMs?: number;
  /** Hears the start of the watch (a line on the resource's row). */
  onStart?: (line: string) => Promise<void> | void;
}

export type HealthResult =
  | { healthy: true }
  | { healthy: false; found: { timestamp: string; log: string }[]; watchedMs: number }
  | { healthy: false; found: []; watchedMs: number; unfinished: true };

/** Matching lines quoted in the error. */
const QUOTED_MATCHES = 3;

/** Watches the deployment's logs for the query; the oldest matching lines when found. */
export async function watchDeploymentHealth(watch: HealthWatch): Promise<HealthResult> {
  const { client, agentName, deploymentId, check, signal } = watch;
  const watchMs = check.watchSeconds * 1000;
  const limitMs = Math.min(watchMs, watch.limitMs ?? watchMs);
  await watch.onStart?.(
    `agent "${agentName}": deployment ${deploymentId} is ready; watching its logs for "${check.failOnLogQuery}" for ${check.watchSeconds} s (healthCheck)`,
  );
  const started = Date.now();
  const read = () =>
    client.getAgentLogs({ agentName, deploymentId, query: check.failOnLogQuery, order: "asc", limit: QUOTED_MATCHES }, { signal });
  for (;;) {
    const elapsed = Date.now() - started;
    const last = elapsed >= limitMs;
    try {
      const result = await read();
      if (result.total.value > 0) return { healthy: false, found: result.logs.map(({ timestamp, log }) => ({ timestamp, log })), watchedMs: Date.now() - started };
    } catch (error) {
      signal.throwIfAborted();
      if (last || !isTransientPollFailure(error)) throw error;
    }
    if (last) return limitMs < watchMs ? { healthy: false, found: [], watchedMs: elapsed, unfinished: true } : { healthy: true };
    await abortableSleep(Math.min(HEALTH_READ_INTERVAL_MS, limitMs - elapsed), signal);
  }
}
