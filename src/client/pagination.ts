/**
 * Every log entry matching a query, page by page: one page in memory at a
 * time, entries handed out one by one, each at most once while new lines
 * arrive during the iteration.
 *
 * Paging is by offset, so a line written above the current position shifts
 * the pages. Two measures keep every entry to one appearance:
 * - In the default order (newest first) the window is pinned after the first
 *   page: later pages ask for `endTime` = the second after the newest entry
 *   seen, so lines written in a later second are outside the query.
 * - Lines written within that last second (or written late, with an older
 *   timestamp) still shift the pages. The entries a page repeats from the
 *   end of the page before are recognised (same timestamp and text) and
 *   skipped, for shifts of up to one page.
 * In ascending order new lines arrive at the end: they are read there, each
 * once, and the iteration ends when it catches up (a short page).
 *
 * A hand-written async iterator rather than an async generator: a generator
 * resumes through its own promise queue for every entry, which costs more
 * than the rest of reading a 1000-entry page; here an entry already in the
 * page is answered with one resolved promise.
 */
import type { AgentLogsQuery, LogEntry, LogResult } from "./schemas";
import { MAX_LOG_LIMIT, boundSeconds } from "./logs-query";

export interface IterateLogsArgs extends AgentLogsQuery {
  /** Entries per request, 1 to 1000 (default 1000). `limit` caps the total yielded. */
  pageSize?: number;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** How many entries at the head of `page` repeat the tail of `previous` (a shift of the pages). */
export function repeatedHead(previous: readonly LogEntry[], page: readonly LogEntry[]): number {
  const first = page[0];
  if (first === undefined || movesOn(previous, first)) return 0;
  for (let j = Math.max(0, previous.length - page.length); j < previous.length; j++) {
    const candidate = previous[j] as LogEntry;
    if (candidate.timestamp !== first.timestamp || candidate.log !== first.log) continue;
    let k = 1;
    while (j + k < previous.length) {
      const a = previous[j + k] as LogEntry;
      const b = page[k] as LogEntry;
      if (a.timestamp !== b.timestamp || a.log !== b.log) break;
      k++;
    }
    if (j + k === previous.length) return k;
  }
  return 0;
}

/**
 * Whether `next` lies strictly beyond the last entry of `previous` in the
 * direction the pages travel, so that it cannot repeat any of them: the
 * common case, answered without a scan. Timestamps of one length in the
 * service's UTC form compare as strings.
 */
function movesOn(previous: readonly LogEntry[], next: LogEntry): boolean {
  const head = previous[0]?.timestamp;
  const tail = previous[previous.length - 1]?.timestamp;
  if (head === undefined || tail === undefined || head === tail) return false;
  if (head.length !== tail.length || next.timestamp.length !== tail.length || !tail.endsWith("Z")) return false;
  return head < tail ? next.timestamp > tail : next.timestamp < tail;
}

/** The whole second after the one of `timestamp` (an exclusive endTime that keeps it), or undefined when it cannot be read. */
function secondAfter(timestamp: string): number | undefined {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000) + 1;
}

export class LogEntryIterator implements AsyncIterableIterator<LogEntry> {
  private query: AgentLogsQuery;
  private readonly pageSize: number;
  private readonly cap: number;
  private offset: number;
  private yielded = 0;
  private page: LogEntry[] = [];
  private index = 0;
  private first = true;
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
    const startOffset = this.offset;
    const result = await this.fetchPage({ ...this.query, offset: startOffset, limit: want });
    const logs = result.logs;
    this.index = this.first ? 0 : repeatedHead(this.page, logs);
    this.page = logs;
    this.offset += logs.length;
    const exhausted = result.total.relation === "eq" && this.offset >= result.total.value;
    this.last = logs.length < want || exhausted;
    if (this.first) {
      this.first = false;
      if (!this.last && startOffset === 0) this.pinWindow(logs[0]);
    }
    return this.next();
  }

  /** Newest first from offset 0: later pages end before the second after the newest entry (or the caller's endTime, if earlier). */
  private pinWindow(newest: LogEntry | undefined): void {
    if (this.query.order === "asc" || newest === undefined) return;
    const end = secondAfter(newest.timestamp);
    if (end === undefined) return;
    const given = this.query.endTime;
    if (given === undefined || end < boundSeconds(given, "end")) this.query = { ...this.query, endTime: end };
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
