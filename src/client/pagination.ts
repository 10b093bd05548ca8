/**
 * Every log entry matching a query, page by page: one page in memory at a
 * time, entries yielded one by one.
 */
import type { AgentLogsQuery, LogEntry, LogResult } from "./schemas";
import { MAX_LOG_LIMIT } from "./logs-query";

export interface IterateLogsArgs extends AgentLogsQuery {
  /** Entries per request, 1 to 1000 (default 1000). `limit` caps the total yielded. */
  pageSize?: number;
}

export async function* iteratePages(
  args: IterateLogsArgs,
  fetchPage: (query: AgentLogsQuery) => Promise<LogResult>,
): AsyncGenerator<LogEntry, void, undefined> {
  const pageSize = args.pageSize ?? MAX_LOG_LIMIT;
  const cap = args.limit ?? Number.POSITIVE_INFINITY;
  const { pageSize: _pageSize, limit: _limit, ...query } = args;
  let offset = args.offset ?? 0;
  let yielded = 0;
  while (yielded < cap) {
    const want = Math.min(pageSize, cap - yielded);
    const page = await fetchPage({ ...query, offset, limit: want });
    for (const entry of page.logs) {
      yield entry;
      yielded++;
    }
    offset += page.logs.length;
    const exhausted = page.total.relation === "eq" && offset >= page.total.value;
    if (page.logs.length < want || exhausted) return;
  }
}
