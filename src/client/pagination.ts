/**
 * Every log entry matching a query, page by page: one page in memory at a
 * time, entries handed out one by one.
 *
 * A hand-written async iterator rather than an async generator: a generator
 * resumes through its own promise queue for every entry, which costs more
 * than the rest of reading a 1000-entry page; here an entry already in the
 * page is answered with one resolved promise.
 */
import type { AgentLogsQuery, LogEntry, LogResult } from "./schemas";
import { MAX_LOG_LIMIT } from "./logs-query";

export interface IterateLogsArgs extends AgentLogsQuery {
  /** Entries per request, 1 to 1000 (default 1000). `limit` caps the total yielded. */
  pageSize?: number;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export class LogEntryIterator implements AsyncIterableIterator<LogEntry> {
  private readonly query: AgentLogsQuery;
  private readonly pageSize: number;
  private readonly cap: number;
  private offset: number;
  private yielded = 0;
  private page: LogEntry[] = [];
  private index = 0;
  private last = false;
  private finished = false;

  constructor(
    args: IterateLogsArgs,
    private readonly fetchPage: (query: AgentLogsQuery) => Promise<LogResult>,
  ) {
    const { pageSize, limit, ...query } = args;
    this.query = query;
    this.pageSize = pageSize ?? MAX_LOG_LIMIT;
    this.cap = limit ?? Number.POSITIVE_INFINITY;
    this.offset = args.offset ?? 0;
  }

  next(): Promise<IteratorResult<LogEntry, undefined>> {
    if (this.index < this.page.length && this.yielded < this.cap) {
      this.yielded++;
      return Promise.resolve({ done: false, value: this.page[this.index++] as LogEntry });
    }
    if (this.finished || this.last || this.yielded >= this.cap) {
      this.finish();
      return Promise.resolve(DONE);
    }
    return this.nextPage();
  }

  private async nextPage(): Promise<IteratorResult<LogEntry, undefined>> {
    const want = Math.min(this.pageSize, this.cap - this.yielded);
    const result = await this.fetchPage({ ...this.query, offset: this.offset, limit: want });
    this.page = result.logs;
    this.index = 0;
    this.offset += result.logs.length;
    const exhausted = result.total.relation === "eq" && this.offset >= result.total.value;
    this.last = result.logs.length < want || exhausted;
    return this.next();
  }

  private finish(): void {
    this.finished = true;
    this.page = [];
  }

  return(): Promise<IteratorResult<LogEntry, undefined>> {
    this.finish();
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
