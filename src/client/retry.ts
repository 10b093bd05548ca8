/**
 * The retry policy of design section 6, in one place.
 *
 * - GET and DELETE: retried on connection errors, timeouts, 429 and 5xx.
 * - POST: retried only on 429 and on a connection refused before the request
 *   was sent; what to do after an ambiguous POST failure is the client's call
 *   (it reads the agent back, see client.ts).
 * - At most `maxRetries` retries; exponential backoff (base · 2^n, capped)
 *   with ±25 % jitter; a `Retry-After` from the service wins (capped at 60 s).
 *
 * Why not undici's retry interceptor: it retries at the dispatcher level,
 * where the ambiguous-create read-back (an application-level GET of the
 * agent) and the per-retry notes to the user cannot be expressed; this loop
 * is small, uses the same rules and is tested with fake timers.
 */
import { ConnectionError, RateLimitError, ServerError, TimeoutError } from "./errors";

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
}

export interface RetryNote {
  method: string;
  path: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

const RETRY_AFTER_CAP_MS = 60_000;

export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function isIdempotent(method: string): boolean {
  return method === "GET" || method === "DELETE" || method === "HEAD";
}

/** Whether `error` may be retried for `method` by the policy. */
export function isRetryable(error: unknown, method: string): boolean {
  if (error instanceof RateLimitError) return true;
  if (error instanceof ConnectionError && error.notSent) return true;
  if (!isIdempotent(method)) return false;
  return error instanceof ConnectionError || error instanceof TimeoutError || error instanceof ServerError;
}

/** A POST failure after which the service may or may not have acted. */
export function isAmbiguous(error: unknown): boolean {
  return (
    (error instanceof ConnectionError && !error.notSent) || error instanceof TimeoutError || error instanceof ServerError
  );
}

export function retryReason(error: unknown): string {
  if (error instanceof RateLimitError) return `${error.status} ${error.code ?? "RATE_LIMITED"}`;
  if (error instanceof ServerError) return `${error.status}${error.code ? ` ${error.code}` : ""}`;
  if (error instanceof ConnectionError) return error.message.replace(/^.*connection failed \((.*)\)$/, "$1");
  if (error instanceof TimeoutError) return "timeout";
  return error instanceof Error ? error.name : "error";
}

/** Delay before retry number `attempt` (1-based). */
export function retryDelayMs(attempt: number, error: unknown, policy: RetryPolicy): number {
  if (error instanceof RateLimitError && error.retryAfterSeconds !== undefined) {
    return Math.min(RETRY_AFTER_CAP_MS, Math.round(error.retryAfterSeconds * 1000));
  }
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jitter = 0.75 + policy.random() * 0.5;
  return Math.round(exponential * jitter);
}

/**
 * Runs `attempt` until it succeeds, fails with an error the policy does not
 * retry, or the retries are spent. `onRetry` hears about every retry.
 */
export async function withRetries<T>(
  method: string,
  path: string,
  policy: RetryPolicy,
  attempt: () => Promise<T>,
  onRetry?: (note: RetryNote) => void,
  retryable: (error: unknown) => boolean = (e) => isRetryable(e, method),
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= policy.maxRetries || !retryable(error)) throw error;
      const delayMs = retryDelayMs(retry + 1, error, policy);
      onRetry?.({ method, path, attempt: retry + 1, delayMs, reason: retryReason(error) });
      await policy.sleep(delayMs);
    }
  }
}
