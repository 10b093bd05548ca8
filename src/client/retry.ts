/**
 * What is retried, and how, in one place: the client's requests, the
 * readiness polls and the provider's reading of a failed request all ask here.
 *
 * - GET and DELETE: retried on connection errors, timeouts, 429 and 5xx.
 * - POST: retried only on 429 and on a connection refused before the request
 *   was sent; what to do after an ambiguous POST failure is the client's call
 *   (it reads the agent back, see client.ts).
 * - At most `maxRetries` retries; exponential backoff (base · 2^n, capped)
 *   with ±25 % jitter; a `Retry-After` from the service wins (capped at 60 s).
 * - A readiness poll rides out what `isTransientPollFailure` accepts until
 *   the wait's own timeout.
 * - An aborted call (Cancel, SIGINT) is never retried.
 *
 * Why not undici's retry interceptor (`interceptors.retry` / `RetryAgent`,
 * looked at in undici 7): it works per request, below our error mapping,
 * from lists of methods, status codes and raw error codes. A custom `retry`
 * callback could re-create the method and notSent rules, but not (a) answer
 * an ambiguous create with a GET of another path (the read-back), nor
 * (b) share one retry budget between that create's exchanges. It also
 * replaces the last retryable answer by a
 * RequestRetryError instead of the service's `{ error, code }` body, caps
 * Retry-After at its own maxTimeout (our 8 s backoff cap, where we allow
 * 60 s), has no jitter, and sleeps on its own timer (no onRetry note, no
 * injectable sleep). So this is a small loop with the same rules, tested
 * with an injected sleep and with fake timers.
 */
import { RETRY_AFTER_CAP_MS } from "./delays";
import * as errors from "./errors";

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

export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function isIdempotent(method: string): boolean {
  return method === "GET" || method === "DELETE" || method === "HEAD";
}

/** Whether `error` may be retried for `method` by the policy. */
export function isRetryable(error: unknown, method: string): boolean {
  if (error instanceof errors.RateLimitError) return true;
  if (error instanceof errors.ConnectionError && error.notSent) return true;
  if (!isIdempotent(method)) return false;
  return error instanceof errors.ConnectionError || error instanceof errors.TimeoutError || error instanceof errors.ServerError;
}

/** A POST failure after which the service may or may not have acted. */
export function isAmbiguous(error: unknown): boolean {
  return (
    (error instanceof errors.ConnectionError && !error.notSent) || error instanceof errors.TimeoutError || error instanceof errors.ServerError
  );
}

/** A failed readiness poll that the wait rides out: the service may answer 5xx, 429 or even 404 for a while after a create. */
export function isTransientPollFailure(error: unknown): boolean {
  return (
    error instanceof errors.ServerError ||
    error instanceof errors.RateLimitError ||
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NotFoundError ||
    (error instanceof errors.ApiError && error.status >= 500)
  );
}

/** Whether a failed create or update may still have been acted on by the service (then the agent is kept in state). */
export function mayHaveActed(error: unknown): boolean {
  if (error instanceof errors.ConnectionError) return !error.notSent;
  return !(
    error instanceof errors.InputValidationError ||
    error instanceof errors.ConfigurationError ||
    error instanceof errors.BadRequestError ||
    error instanceof errors.AuthenticationError ||
    error instanceof errors.ConflictError ||
    error instanceof errors.NotFoundError ||
    error instanceof errors.RateLimitError
  );
}

export function retryReason(error: unknown): string {
  if (error instanceof errors.RateLimitError) return `${error.status} ${error.code ?? "RATE_LIMITED"}`;
  if (error instanceof errors.ServerError) return `${error.status}${error.code ? ` ${error.code}` : ""}`;
  if (error instanceof errors.ConnectionError) return error.message.replace(/^.*connection failed \((.*)\)$/, "$1");
  if (error instanceof errors.TimeoutError) return "timeout";
  return error instanceof Error ? error.name : "error";
}

/** Delay before retry number `attempt` (1-based). */
export function retryDelayMs(attempt: number, error: unknown, policy: RetryPolicy): number {
  if (error instanceof errors.RateLimitError && error.retryAfterSeconds !== undefined) {
    return Math.min(RETRY_AFTER_CAP_MS, Math.round(error.retryAfterSeconds * 1000));
  }
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jitter = 0.75 + policy.random() * 0.5;
  return Math.round(exponential * jitter);
}

/**
 * Retries spent by one logical call. A call that makes several exchanges (a
 * create that is re-posted after a read-back) shares one budget, so
 * `maxRetries` bounds the call as a whole, not each exchange.
 */
export interface RetryBudget {
  used: number;
}

/** One logical call's retry settings. */
export interface RetryContext {
  method: string;
  path: string;
  policy: RetryPolicy;
  onRetry?: ((note: RetryNote) => void) | undefined;
  /** Ends the call: no retry starts, and a sleep between retries ends early. */
  signal?: AbortSignal | undefined;
}

/** Sleeps the policy's way, or rejects with the signal's reason as soon as it is aborted. */
function sleepUnlessAborted(ms: number, context: RetryContext): Promise<void> {
  const { signal } = context;
  if (!signal) return context.policy.sleep(ms);
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    context.policy.sleep(ms).then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      reject,
    );
  });
}

/**
 * Spends one retry of `budget` on `error`: throws `error` when the budget is
 * spent or the call was aborted, else tells `onRetry` and sleeps the delay.
 * `why` is added to the reason (for example "agent not found on read-back").
 */
export async function spendRetry(budget: RetryBudget, error: unknown, context: RetryContext & { why?: string }): Promise<void> {
  context.signal?.throwIfAborted();
  if (budget.used >= context.policy.maxRetries) throw error;
  budget.used++;
  const delayMs = retryDelayMs(budget.used, error, context.policy);
  const reason = context.why ? `${retryReason(error)}, ${context.why}` : retryReason(error);
  context.onRetry?.({ method: context.method, path: context.path, attempt: budget.used, delayMs, reason });
  await sleepUnlessAborted(delayMs, context);
}

/**
 * Runs `attempt` until it succeeds, fails with an error `retryable` refuses
 * (by default the policy for the method), or the retries of `budget` are
 * spent. `onRetry` hears about every retry.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  context: RetryContext & { retryable?: (error: unknown) => boolean; budget?: RetryBudget },
): Promise<T> {
  const retryable = context.retryable ?? ((e: unknown) => isRetryable(e, context.method));
  const budget = context.budget ?? { used: 0 };
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!retryable(error)) throw error;
      await spendRetry(budget, error, context);
    }
  }
}
