/**
 * Waiting for readiness: poll GET /agents/{name} every 500 ms for the first
 * minute (so readiness is noticed within half a second and one request),
 * then every 5 s; a poll goes through the provider's PollGate when given. The failures of a poll that the retry
 * rules call transient (5xx, 429, dropped connections, timeouts, a 404 just
 * after a create) are ridden out until the wait's own timeout; any other
 * failure ends the wait. An aborted signal ends it at once, the poll in
 * flight included.
 */
import { setTimeout as sleepFor } from "node:timers/promises";
import type { AgentHostingClient } from "../client/client";
import { NotFoundError } from "../client/errors";
import { isTransientPollFailure } from "../client/retry";
import { isAgentReady, type ServiceAgent } from "../model";
import type { PollGate } from "./poll-gate";
import type { PollObservation } from "./progress";

export interface WaitOptions {
  /** The agent's name at the service. */
  name: string;
  /** The agent as the create or update answered, if it did. */
  initial: ServiceAgent | undefined;
  timeoutSeconds: number;
  /** For an update that made a new deployment: wait for that one. */
  deploymentId?: string;
  firstDelayMs?: number;
  /** The provider's gate for polls: bounds how many are in flight at once. */
  gate?: PollGate;
  /** Hears every poll (progress lines). */
  onPoll?: (observation: PollObservation) => Promise<void> | void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Ends the wait: it rejects with the signal's reason and polls no more. */
  signal?: AbortSignal;
}

export type WaitResult =
  | { ready: true; agent: ServiceAgent }
  | { ready: false; agent: ServiceAgent | undefined; waitedMs: number; lastError: unknown };

/** The wait ended on a failure that waiting does not cure (a 401, an answer lacking a field the package relies on). */
export class WaitFailure {
  constructor(
    readonly error: unknown,
    readonly agent: ServiceAgent | undefined,
  ) {}
}

const FAST_PHASE_MS = 60_000;
const FAST_INTERVAL_MS = 500;
const SLOW_INTERVAL_MS = 5_000;

/** The delay before the next poll, given how long we have waited. */
export function nextPollDelay(elapsedMs: number): number {
  return elapsedMs < FAST_PHASE_MS ? FAST_INTERVAL_MS : SLOW_INTERVAL_MS;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface PatienceOptions {
  /** How long transient failures are ridden out, default 30 s. */
  patienceMs?: number;
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal | undefined;
}

/**
 * GET /agents/{name}, riding out transient failures (not a 404) for up to
 * `patienceMs`: a service may answer 5xx for a while right after a create.
 */
export async function patientGetAgent(client: AgentHostingClient, name: string, options: PatienceOptions = {}): Promise<ServiceAgent> {
  const { signal } = options;
  const sleep = options.sleep ?? ((ms: number) => abortableSleep(ms, signal));
  const deadline = Date.now() + (options.patienceMs ?? 30_000);
  let delay = 250;
  for (;;) {
    try {
      return await client.getAgent(name, { signal });
    } catch (error) {
      signal?.throwIfAborted();
      if (error instanceof NotFoundError || !isTransientPollFailure(error) || Date.now() + delay > deadline) throw error;
    }
    await sleep(delay);
    delay = Math.min(2_000, delay * 2);
  }
}

/** Sleeps `ms`; an abort ends it early with the signal's own reason. */
function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return sleepFor(ms);
  return sleepFor(ms, undefined, { signal }).catch(() => signal.throwIfAborted());
}

/** Polls until ready or the timeout; throws WaitFailure on a failure that is not transient. */
export async function waitForAgentReady(client: AgentHostingClient, options: WaitOptions): Promise<WaitResult> {
  const { signal, name, initial } = options;
  const sleep = options.sleep ?? ((ms: number) => abortableSleep(ms, signal));
  const now = options.now ?? Date.now;
  const started = now();
  const timeoutMs = options.timeoutSeconds * 1000;
  const deadline = started + timeoutMs;
  let agent = initial;
  let lastError: unknown;
  let wait = options.firstDelayMs ?? FAST_INTERVAL_MS;
  const poll = () => client.getAgent(name, { signal });
  while (agent === undefined || !isAgentReady(agent, options.deploymentId)) {
    signal?.throwIfAborted();
    const observation: PollObservation = { agent, waitedMs: now() - started, timeoutMs };
    if (lastError !== undefined) observation.lastError = message(lastError);
    await options.onPoll?.(observation);
    const remaining = deadline - now();
    if (remaining <= 0) return { ready: false, agent, waitedMs: now() - started, lastError };
    await sleep(Math.min(wait, remaining));
    signal?.throwIfAborted();
    try {
      agent = await (options.gate ? options.gate.run(poll, signal) : poll());
      lastError = undefined;
    } catch (error) {
      signal?.throwIfAborted();
      if (!isTransientPollFailure(error)) throw new WaitFailure(error, agent);
      lastError = error;
    }
    wait = nextPollDelay(now() - started);
  }
  return { ready: true, agent };
}
