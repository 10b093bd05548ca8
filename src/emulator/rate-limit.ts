/** A fixed-window rate limit over /v1 requests: the excess gets 429 with Retry-After. */
export interface RateLimitSpec {
  requestsPerWindow: number;
  windowMs: number;
  retryAfterSeconds: number;
}

export class RateLimit {
  private spec: RateLimitSpec | undefined;
  private windowStart = 0;
  private used = 0;
  limited = 0;

  set(spec: RateLimitSpec | undefined): void {
    this.spec = spec;
    this.windowStart = Date.now();
    this.used = 0;
  }

  /** Seconds to ask the client to wait, or undefined when the request may pass. */
  check(now = Date.now()): number | undefined {
    if (!this.spec) return undefined;
    if (now - this.windowStart >= this.spec.windowMs) {
      this.windowStart = now;
      this.used = 0;
    }
    if (this.used < this.spec.requestsPerWindow) {
      this.used++;
      return undefined;
    }
    this.limited++;
    return this.spec.retryAfterSeconds;
  }
}
