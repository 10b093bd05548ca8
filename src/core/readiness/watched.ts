/** What the readiness wait watches: one resource at the service, as its folder describes it. */

export interface Watched<T> {
  /** The resource in messages, e.g. `agent "voice-bot"`. */
  label: string;
  /** One read of the resource. It does not retry: a failed poll is retried by the wait's own loop. */
  poll(signal: AbortSignal): Promise<T>;
  isReady(value: T): boolean;
  /** The state in a progress line or a failure, e.g. `deployment d-1, ready=false, ...`. */
  describe(value: T | undefined): string;
  /**
   * The newest log entries of what runs, newest last (at most `count`), only
   * those from `startTime` (whole Unix seconds) on when given; rejects when
   * they cannot be read.
   */
  newestLogs(value: T, count: number, startTime?: number): Promise<readonly { timestamp: string; log: string }[]>;
}
