/**
 * Waiting for readiness: poll GET /agents/{name} with a backoff that starts
 * well under a second and is capped at 1 s for the first minute (so readiness
 * is noticed within 1 s), then at 5 s.
 */
import type { AgentHostingClient } from "../client/client";
import type { Agent } from "../client/schemas";

export interface WaitOptions {
  timeoutSeconds: number;
  /** For an update that made a new deployment: wait for that one. */
  deploymentId?: string;
  firstDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export type WaitResult = { ready: true; agent: Agent } | { ready: false; agent: Agent; waitedMs: number };

const FAST_PHASE_MS = 60_000;
const FAST_CAP_MS = 1_000;
const SLOW_CAP_MS = 5_000;

export function isReady(agent: Agent, deploymentId?: string): boolean {
  return (
    agent.ready && agent.activeDeploymentReady && (deploymentId === undefined || agent.activeDeploymentId === deploymentId)
  );
}

/** The delay before the next poll, given how long we have waited. */
export function nextPollDelay(previousMs: number, elapsedMs: number): number {
  const cap = elapsedMs < FAST_PHASE_MS ? FAST_CAP_MS : SLOW_CAP_MS;
  return Math.min(cap, Math.max(50, Math.round(previousMs * 1.5)));
}

export async function waitForAgentReady(
  client: AgentHostingClient,
  initial: Agent,
  options: WaitOptions,
): Promise<WaitResult> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const started = now();
  const deadline = started + options.timeoutSeconds * 1000;
  let agent = initial;
  let delay = options.firstDelayMs ?? 100;
  while (!isReady(agent, options.deploymentId)) {
    const remaining = deadline - now();
    if (remaining <= 0) return { ready: false, agent, waitedMs: now() - started };
    await sleep(Math.min(delay, remaining));
    agent = await client.getAgent(initial.name);
    delay = nextPollDelay(delay, now() - started);
  }
  return { ready: true, agent };
}
