/**
 * An agent's live sessions, set through POST /_emulator/agents/{name}/sessions
 * `{ count, endAfterMs? }`: `activeSessionCount` is `count` until `endsAt`
 * (epoch ms), then 0. Computed from the time when read, so no timer runs and
 * a restart from the state file keeps the same end.
 */
import type { Violation } from "./wire";

export interface StoredSessions {
  count: number;
  /** Epoch ms at which the sessions end; null: they last until set again. */
  endsAt: number | null;
}

/** The agent's live session count at `now` (0 when none were set). */
export function activeSessionCount(sessions: StoredSessions | undefined, now: number): number {
  if (sessions === undefined) return 0;
  return sessions.endsAt !== null && sessions.endsAt <= now ? 0 : sessions.count;
}

const SESSION_FIELDS = ["count", "endAfterMs"];

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;

/** The sessions a control body asks for, from `now`; or the fields it gets wrong. */
export function sessionsOf(body: Record<string, unknown>, now: number): { ok: true; value: StoredSessions } | { ok: false; violations: Violation[] } {
  const violations: Violation[] = [];
  for (const key of Object.keys(body)) {
    if (!SESSION_FIELDS.includes(key)) violations.push({ property: key, reason: "is not a field of this request: only count and endAfterMs" });
  }
  const count = body["count"];
  if (count === undefined || count === null) violations.push({ property: "count", reason: "is required" });
  else if (!isCount(count)) violations.push({ property: "count", reason: "must be an integer ≥ 0" });
  // null means "not given", as on the service's own optional fields.
  const endAfterMs = body["endAfterMs"] ?? undefined;
  if (endAfterMs !== undefined && !isCount(endAfterMs)) violations.push({ property: "endAfterMs", reason: "must be an integer ≥ 0 (milliseconds)" });
  if (violations.length > 0 || !isCount(count)) return { ok: false, violations };
  return { ok: true, value: { count, endsAt: isCount(endAfterMs) ? now + endAfterMs : null } };
}
