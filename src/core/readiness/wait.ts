/**
 * Waiting for readiness, one loop over one retry policy: poll every 500 ms
 * for the first minute (so readiness is noticed within half a second and one
 * request), then every 5 s, each poll through the provider's PollGate; with
 * nothing seen yet, the first poll goes at once. The polls keep a steady
 * schedule: each falls due one interval after the one before fell due, not
 * after its answer came, so a poll's round trip, a progress line's log read
 * or a late timer does not stretch the interval (a loop that falls behind
 * goes at once and keeps its schedule from there). A poll makes one request;
 * when it fails in a way the client's rules call transient (5xx, 429,
 * dropped connections, timeouts, a 404 just after a create), this loop
 * polls again at its next interval (or after the Retry-After a 429 asks
 * for), until the deadline; any other failure ends the wait. An aborted
 * signal ends it at once, the poll in flight included. A read that must
 * ride out a service's bad moments (a refresh right after a create) is the
 * same loop, ready at the first answer.
 */
import { POLL_FAST_INTERVAL_MS, POLL_FAST_PHASE_MS, POLL_SLOW_INTERVAL_MS } from "../../client/delays";
import { RateLimitError } from "../../client/errors";
import { isTransientPollFailure } from "../../client/retry";
import { abortableSleep } from "../abortable-sleep";
import type { PollGate } from "./poll-gate";
import type { ProgressReporter } from "./progress";
import type { Watched } from "./watched";

export interface WaitRequest<T> {
  watched: Watched<T>;
  /** The resource as the create or update answered, if it did. */
  initial: T | undefined;
  timeoutMs: number;
  gate: PollGate;
  /** Ends the wait: it rejects with the signal's reason and polls no more. */
  signal: AbortSignal;
  /** Hears every poll (progress lines). */
  progress?: ProgressReporter<T>;
  /** Which failed polls the loop polls again after (default: isTransientPollFailure). */
  transient?: (error: unknown) => boolean;
  /** Hears each failed poll that is polled again, with the delay before the next (retry notes). */
  onFailedPoll?: (error: unknown, attempt: number, delayMs: number) => void;
}

export type WaitResult<T> =
  | { ready: true; value: T }
  | { ready: false; value: T | undefined; waitedMs: number; lastError: unknown };

/** The wait ended on a failure that waiting does not cure (a 401, an answer lacking a field the package relies on). */
export class WaitFailure<T> {
  constructor(
    readonly error: unknown,
    readonly value: T | undefined,
  ) {}
}

/** The delay before the next poll, given how long the wait has lasted: the one retry policy of a wait. */
export function nextPollDelay(elapsedMs: number): number {
  return elapsedMs < POLL_FAST_PHASE_MS ? POLL_FAST_INTERVAL_MS : POLL_SLOW_INTERVAL_MS;
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The delay the service asks for before the next request after `error` (a 429's Retry-After), 0 when none. */
function askedDelay(error: unknown): number {
  return error instanceof RateLimitError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
}

/** Polls until ready or the deadline; throws WaitFailure on a failure that is not transient. */
export async function waitForReady<T>(request: WaitRequest<T>): Promise<WaitResult<T>> {
  const { watched, signal, gate, progress } = request;
  const transient = request.transient ?? isTransientPollFailure;
  const started = Date.now();
  const deadline = started + request.timeoutMs;
  let value = request.initial;
  let lastError: unknown;
  let failures = 0;
  // Nothing seen yet: the first poll goes at once.
  let delay = value === undefined ? 0 : nextPollDelay(0);
  // When the last poll fell due (the wait's start before the first): the next falls due `delay` after it.
  let lastDue = started;
  while (value === undefined || !watched.isReady(value)) {
    signal.throwIfAborted();
    const waitedMs = Date.now() - started;
    await progress?.({ value, waitedMs, timeoutMs: request.timeoutMs, ...(lastError === undefined ? {} : { lastError: messageOf(lastError) }) });
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { ready: false, value, waitedMs: Date.now() - started, lastError };
    const due = lastDue + delay;
    const sleep = due - Date.now();
    if (sleep > 0) await abortableSleep(Math.min(sleep, remaining), signal);
    lastDue = sleep > 0 ? due : Date.now();
    try {
      value = await gate.run(() => watched.poll(signal), signal);
      lastError = undefined;
      delay = nextPollDelay(Date.now() - started);
    } catch (error) {
      signal.throwIfAborted();
      if (!transient(error)) throw new WaitFailure(error, value);
      lastError = error;
      const asked = askedDelay(error);
      delay = Math.max(nextPollDelay(Date.now() - started), asked);
      // A Retry-After counts from the answer that asked for it.
      if (asked > 0) lastDue = Date.now();
      request.onFailedPoll?.(error, ++failures, delay);
    }
  }
  return { ready: true, value };
}
