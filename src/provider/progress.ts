/**
 * Signs of life while waiting for readiness: once the wait has lasted 5 s,
 * and then at least every 10 s, a line naming the agent, its deployment, the two ready
 * flags, the time waited out of the timeout and the newest log line. It goes
 * to the engine as an info message on the resource's own row when the URN is
 * known. No key and no input value other than the agent's name is printed.
 */
import type { AgentHostingClient } from "../client/client";
import type { ServiceAgent } from "../model";

export const PROGRESS_INTERVAL_MS = 10_000;
/** A wait shorter than this prints nothing: most agents are ready by then, and a stack of hundreds stays quiet. */
export const PROGRESS_FIRST_MS = 5_000;

export interface ProgressSink {
  (message: string): unknown;
}

export interface PollObservation {
  agent: ServiceAgent | undefined;
  waitedMs: number;
  timeoutMs: number;
  /** Why the last poll failed, when it did (the wait rides such failures out). */
  lastError?: string;
}

async function newestLine(client: AgentHostingClient, agent: ServiceAgent): Promise<string> {
  try {
    const page = await client.getAgentLogs({ agentName: agent.name, deploymentId: agent.activeDeploymentId, limit: 1, order: "desc" });
    const entry = page.logs[0];
    return entry ? `newest log: ${entry.log}` : "no log lines yet";
  } catch {
    return "logs unavailable";
  }
}

export function formatProgress(name: string, o: PollObservation, logLine: string): string {
  const seconds = (ms: number) => Math.round(ms / 1000);
  const state = o.agent
    ? `deployment ${o.agent.activeDeploymentId}, ready=${o.agent.ready}, activeDeploymentReady=${o.agent.activeDeploymentReady}`
    : "no answer yet";
  const failure = o.lastError ? `; last poll failed: ${o.lastError}` : "";
  return `agent "${name}": waiting for readiness, ${state}, ${seconds(o.waitedMs)} s of ${seconds(o.timeoutMs)} s; ${logLine}${failure}`;
}

export interface ProgressOptions {
  client: AgentHostingClient;
  name: string;
  sink: ProgressSink;
  intervalMs?: number;
}

/** A poll callback that reports at the first poll after PROGRESS_FIRST_MS of waiting and then every `intervalMs`. */
export function progressReporter(options: ProgressOptions): (o: PollObservation) => Promise<void> {
  const { client, name, sink, intervalMs = PROGRESS_INTERVAL_MS } = options;
  let lastReport = Number.NEGATIVE_INFINITY;
  return async (o) => {
    if (o.waitedMs < PROGRESS_FIRST_MS || o.waitedMs - lastReport < intervalMs) return;
    lastReport = o.waitedMs;
    const line = o.agent ? await newestLine(client, o.agent) : "no log lines yet";
    sink(formatProgress(name, o, line));
  };
}
