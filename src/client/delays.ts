/**
 * Every wait and retry delay of the package's talk with the service, in one
 * place: the client's requests and their retries (retry.ts), the readiness
 * wait's polls and its progress lines (src/core/readiness), a read's
 * patience with a service's bad moments and the health check's reads of a
 * new deployment's logs (src/resources/agent). Nothing here depends on
 * anything else, so any of them may read it.
 */

/** A request's limit, headers and body (the client's `timeoutMs` by default). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** The first retry's backoff (the client's `retryBaseDelayMs` by default); each next one doubles it, ±25 % jitter. */
export const RETRY_BASE_DELAY_MS = 500;
/** The longest backoff between retries (the client's `retryMaxDelayMs` by default). */
export const RETRY_MAX_DELAY_MS = 8_000;
/** The longest a `Retry-After` of the service is waited out. */
export const RETRY_AFTER_CAP_MS = 60_000;

/** The readiness wait polls every POLL_FAST_INTERVAL_MS for its first POLL_FAST_PHASE_MS, then every POLL_SLOW_INTERVAL_MS. */
export const POLL_FAST_PHASE_MS = 60_000;
export const POLL_FAST_INTERVAL_MS = 500;
export const POLL_SLOW_INTERVAL_MS = 5_000;

/** A wait shorter than this prints nothing: most resources are ready by then, and a stack of hundreds stays quiet. */
export const PROGRESS_FIRST_MS = 5_000;
/** After the first, a wait's progress line comes at most this often. */
export const PROGRESS_INTERVAL_MS = 10_000;

/** How long a read rides out a service's transient failures (a 5xx for a while right after a create): the wait's loop, ready at the first answer. */
export const READ_PATIENCE_MS = 30_000;

/** The health check reads a new deployment's logs this often while it watches them. */
export const HEALTH_READ_INTERVAL_MS = 1_000;

/** A delete that waits for an agent's live sessions to end (drainSeconds) reads its session count this often. */
export const DRAIN_POLL_INTERVAL_MS = 2_000;

/** While a readiness wait lasts past PROGRESS_FIRST_MS, the wanted deployment's new log lines are read at most this often. */
export const LIVE_LOGS_INTERVAL_MS = 2_000;
