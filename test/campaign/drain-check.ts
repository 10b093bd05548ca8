/**
 * The drain, read from the emulator's request log and its receipt times: a
 * DELETE the stack sends while the agent's sessions are still live arrives no
 * sooner than the agent's `drainSeconds` after the operation's first read of
 * it (src/resources/agent/read.ts starts the drain's clock once that read is
 * answered), so live sessions are cut only once `drainSeconds` ran out. The
 * other half, a DELETE that follows the sessions' end before `drainSeconds`
 * runs out, is asserted exactly in test/e2e/campaign-cases.test.ts.
 */
import type { RequestRecord } from "../../src/emulator/request-log";
import type { StackState } from "./campaign-stack";
import { serviceNameOf, type Violation } from "./invariants";

/** Sessions the campaign opened on an agent: how many, and when they end (epoch ms on the emulator's clock). */
export interface OpenedSessions {
  count: number;
  endsAt: number | null;
}

const agentPath = /^\/v1\/agents\/([^/]+)$/;

/**
 * The drainSeconds the state before the operation gave each agent: what its delete drains for (the
 * provider reads the outputs' copy; after a failed update the inputs' copy can differ, so the smaller counts).
 */
function drainSecondsOf(before: StackState): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of before.agents) {
    const values = [r.outputs?.["drainSeconds"], r.inputs?.["drainSeconds"]].filter((v): v is number => typeof v === "number");
    out.set(serviceNameOf(r), values.length === 0 ? 0 : Math.min(...values));
  }
  return out;
}

/** Checks the first DELETE of each agent among `requests` (one operation's, in order); forgets the sessions of the agents deleted. */
export function drainViolations(requests: RequestRecord[], before: StackState, sessions: Map<string, OpenedSessions>): Violation[] {
  const drains = drainSecondsOf(before);
  const found: Violation[] = [];
  const seen = new Set<string>();
  for (const [i, r] of requests.entries()) {
    const name = r.method === "DELETE" ? agentPath.exec(r.path)?.[1] : undefined;
    if (name === undefined || seen.has(name)) continue;
    seen.add(name);
    const opened = sessions.get(name);
    const drainSeconds = drains.get(name) ?? 0;
    if (r.status >= 200 && r.status < 300) sessions.delete(name);
    if (!opened || opened.count === 0 || drainSeconds === 0) continue;
    if (opened.endsAt !== null && opened.endsAt <= r.receivedAtMs) continue;
    const firstRead = requests.slice(0, i).find((x) => x.method === "GET" && x.path === r.path);
    const waited = firstRead === undefined ? undefined : r.receivedAtMs - firstRead.receivedAtMs;
    if (waited === undefined || waited < drainSeconds * 1000) {
      found.push({
        invariant: "the drain",
        detail: `${name}: its DELETE arrived ${waited === undefined ? "without a read of its sessions before it" : `${waited} ms after the drain's first read`} while ${opened.count} sessions were live (they end at ${String(opened.endsAt)}, the DELETE arrived at ${r.receivedAtMs}); drainSeconds ${drainSeconds}`,
      });
    }
  }
  return found;
}
