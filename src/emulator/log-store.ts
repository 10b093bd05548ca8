/**
 * An agent's log entries, kept sorted by time, and the logs query:
 * deploymentId, query (case-insensitive substring), startTime/endTime (Unix
 * seconds, strictly after / strictly before), order (default desc), limit,
 * offset; total with relation "eq", or "gte" once capped at 10 000.
 */
export interface StoredEntry {
  deploymentId: string;
  ns: bigint;
  log: string;
}

export interface LogQuery {
  deploymentId?: string;
  query?: string;
  startTime?: number;
  endTime?: number;
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

export const TOTAL_CAP = 10_000;

export class LogStore {
  private readonly byAgent = new Map<string, StoredEntry[]>();

  entries(agent: string): StoredEntry[] {
    let list = this.byAgent.get(agent);
    if (!list) {
      list = [];
      this.byAgent.set(agent, list);
    }
    return list;
  }

  /** Appends keeping the order by time (a late entry is inserted in place). */
  add(agent: string, entry: StoredEntry): void {
    const list = this.entries(agent);
    const lastEntry = list[list.length - 1];
    if (!lastEntry || lastEntry.ns <= entry.ns) {
      list.push(entry);
      return;
    }
    list.splice(firstIndex(list, (e) => e.ns > entry.ns), 0, entry);
  }

  /** Appends entries already sorted by time: O(n) at most (a merge when they reach back before the newest entry). */
  addBatch(agent: string, batch: readonly StoredEntry[]): void {
    const first = batch[0];
    if (!first) return;
    const list = this.entries(agent);
    const lastEntry = list[list.length - 1];
    if (!lastEntry || lastEntry.ns <= first.ns) {
      for (const entry of batch) list.push(entry);
      return;
    }
    const merged: StoredEntry[] = new Array<StoredEntry>(list.length + batch.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < merged.length; k++) {
      const a = list[i];
      const b = batch[j];
      if (a !== undefined && (b === undefined || a.ns <= b.ns)) {
        merged[k] = a;
        i++;
      } else {
        merged[k] = b as StoredEntry;
        j++;
      }
    }
    this.byAgent.set(agent, merged);
  }

  /** The newest timestamp of every agent's entries (0n when there are none). */
  newestNs(): bigint {
    let newest = 0n;
    for (const list of this.byAgent.values()) {
      const last = list[list.length - 1];
      if (last && last.ns > newest) newest = last.ns;
    }
    return newest;
  }

  remove(agent: string): void {
    this.byAgent.delete(agent);
  }

  clear(): void {
    this.byAgent.clear();
  }

  agents(): string[] {
    return [...this.byAgent.keys()];
  }

  query(agent: string, q: LogQuery): { total: { value: number; relation: string }; logs: StoredEntry[] } {
    const list = this.entries(agent);
    const after = q.startTime === undefined ? undefined : BigInt(q.startTime) * 1_000_000_000n;
    const before = q.endTime === undefined ? undefined : BigInt(q.endTime) * 1_000_000_000n;
    // The list is sorted by time: the time bounds are a slice [from, to), found by bisection.
    const from = after === undefined ? 0 : firstIndex(list, (e) => e.ns > after);
    const to = before === undefined ? list.length : firstIndex(list, (e) => e.ns >= before);
    const needle = q.query?.toLowerCase();
    if (q.deploymentId === undefined && needle === undefined) {
      const total = Math.max(0, to - from);
      const page: StoredEntry[] = [];
      for (let i = q.offset; i < Math.min(total, q.offset + q.limit); i++) {
        page.push(list[q.order === "asc" ? from + i : to - 1 - i] as StoredEntry);
      }
      return { total: totalOf(total), logs: page };
    }
    const matches = (e: StoredEntry) =>
      (q.deploymentId === undefined || e.deploymentId === q.deploymentId) && (needle === undefined || e.log.toLowerCase().includes(needle));
    const page: StoredEntry[] = [];
    let count = 0;
    for (let n = 0; n < to - from; n++) {
      const entry = list[q.order === "asc" ? from + n : to - 1 - n] as StoredEntry;
      if (!matches(entry)) continue;
      if (count >= q.offset && page.length < q.limit) page.push(entry);
      count++;
    }
    return { total: totalOf(count), logs: page };
  }
}

/** The first index whose entry satisfies `test` (which is false, then true, along the list). */
function firstIndex(list: readonly StoredEntry[], test: (entry: StoredEntry) => boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (test(list[mid] as StoredEntry)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function totalOf(count: number): { value: number; relation: string } {
  return count > TOTAL_CAP ? { value: TOTAL_CAP, relation: "gte" } : { value: count, relation: "eq" };
}
