/**
 * Every log entry matching a query, page by page: at most two pages in
 * memory, entries handed out one by one, each at most once while new lines
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
 * From the second page on, the next page is requested as soon as a page's
 * text has arrived (unless the exact count the service last reported says
 * there is none), so the service prepares it while this page is parsed and
 * handed out: at most two pages are held and one request is in flight, on
 * the connection the page before used. A page requested ahead and not
 * wanted after all (the caller stopped, or the page turned out to be the
 * last) is waited for, never retried, and dropped.
 *
 * A hand-written async iterator rather than an async generator: a generator
 * resumes through its own promise queue for every entry, which costs more
 * than the rest of reading a 1000-entry page; here an entry already in the
 * page is answered with one resolved promise.
 */
import type { LogEntry, LogResult } from "./answer-types";
import type { AgentLogsQuery } from "./request-types";
import { MAX_LOG_LIMIT, boundSeconds } from "./logs-query";

export interface IterateLogsArgs extends AgentLogsQuery {
  /** Entries per request, 1 to 1000 (default 1000). `limit` caps the total yielded. */
  pageSize?: number;
}

/** Where the pages come from: the request, and the check of an answer's text. */
export interface LogPageSource {
  /** Requests one page; `wanted` says whether a failed attempt is still worth a retry. */
  fetch(query: AgentLogsQuery, wanted?: () => boolean): Promise<string>;
  parse(text: string): LogResult;
}

/** A page requested before it was needed. */
interface Ahead {
  offset: number;
  limit: number;
  text: Promise<string>;
  wanted: boolean;
}

/** One turn of the event loop: undici puts a dispatched request on the wire in a later phase. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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
  /** The count the service last reported, once a page has been read. */
  private total: LogResult["total"] | undefined;
  private ahead: Ahead | undefined;

  constructor(
    args: IterateLogsArgs,
    private readonly source: LogPageSource,
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
    if (this.finished || this.last || this.yielded >= this.cap) return this.finish().then(() => DONE);
    return this.nextPage();
  }

  private async nextPage(): Promise<IteratorResult<LogEntry, undefined>> {
    const want = Math.min(this.pageSize, this.cap - this.yielded);
    const startOffset = this.offset;
    const text = await this.take(startOffset, want);
    if (this.finished) return DONE;
    let result: LogResult;
    try {
      if (this.requestAhead(startOffset + want, this.yielded + want)) await nextTurn();
      result = this.source.parse(text);
    } catch (error) {
      await this.finish();
      throw error;
    }
    const logs = result.logs;
    this.total = result.total;
    this.index = this.first ? 0 : repeatedHead(this.page, logs);
    this.page = logs;
    this.offset += logs.length;
    const exhausted = result.total.relation === "eq" && this.offset >= result.total.value;
    this.last = logs.length < want || exhausted;
    if (this.last) await this.dropAhead();
    if (this.first) {
      this.first = false;
      if (!this.last && startOffset === 0) this.pinWindow(logs[0]);
    }
    return this.next();
  }

  /** The page at `offset`: the one requested ahead when it is that page, else a new request. */
  private async take(offset: number, limit: number): Promise<string> {
    const ahead = this.ahead;
    if (ahead !== undefined && ahead.offset === offset && ahead.limit === limit) {
      this.ahead = undefined;
      return ahead.text;
    }
    await this.dropAhead();
    return this.source.fetch({ ...this.query, offset, limit });
  }

  /**
   * Requests the page at `offset` now, unless the cap leaves no room after
   * `yieldedAfter` entries or an exact count ("eq") says nothing lies there.
   * A count that is only a lower bound (a capped "gte") cannot say, so the
   * page is requested: past such a count, reading ahead costs one request
   * at the end of the entries. The window is pinned after the first page,
   * so nothing is requested ahead before it.
   */
  private requestAhead(offset: number, yieldedAfter: number): boolean {
    const limit = Math.min(this.pageSize, this.cap - yieldedAfter);
    const total = this.total;
    if (total === undefined || limit < 1) return false;
    if (total.relation === "eq" && offset >= total.value) return false;
    const ahead: Ahead = { offset, limit, text: Promise.resolve(""), wanted: true };
    ahead.text = this.source.fetch({ ...this.query, offset, limit }, () => ahead.wanted);
    // Its failure is met when the page is taken; a page dropped unread fails unheard.
    ahead.text.catch(() => undefined);
    this.ahead = ahead;
    return true;
  }

  /**
   * Lets a page requested ahead and not wanted after all run to its end, not
   * retried, and drops its answer: when the iteration is over nothing of it
   * is in flight, and the connection stays open for the next call (an
   * aborted HTTP/1.1 request would close it).
   */
  private async dropAhead(): Promise<void> {
    const ahead = this.ahead;
    if (ahead === undefined) return;
    this.ahead = undefined;
    ahead.wanted = false;
    await ahead.text.catch(() => undefined);
  }

  /** Newest first from offset 0: later pages end before the second after the newest entry (or the caller's endTime, if earlier). */
  private pinWindow(newest: LogEntry | undefined): void {
    if (this.query.order === "asc" || newest === undefined) return;
    const end = secondAfter(newest.timestamp);
    if (end === undefined) return;
    const given = this.query.endTime;
    if (given === undefined || end < boundSeconds(given, "end")) this.query = { ...this.query, endTime: end };
  }

  private finish(): Promise<void> {
    this.finished = true;
    this.page = [];
    return this.dropAhead();
  }

  /** Breaking off: a page requested ahead is waited for, then nothing of the iteration is in flight. */
  return(): Promise<IteratorResult<LogEntry, undefined>> {
    return this.finish().then(() => DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
