/** The GET outage after a create (reading switch `getOutageAfterCreate`): per agent, counted from its create. */
import type { GetOutage } from "./reading";

type Remaining = { requests: number } | { untilMs: number };

export class GetOutages {
  private readonly byAgent = new Map<string, Remaining>();

  constructor(private readonly outage: GetOutage | null) {}

  /** Called when the agent is created. */
  begin(agent: string, now = Date.now()): void {
    if (this.outage === null) return;
    this.byAgent.set(agent, "requests" in this.outage ? { requests: this.outage.requests } : { untilMs: now + this.outage.ms });
  }

  /** True when this GET of the agent falls in its outage (a request-counted outage is used up by one). */
  take(agent: string, now = Date.now()): boolean {
    const remaining = this.byAgent.get(agent);
    if (remaining === undefined) return false;
    if ("untilMs" in remaining) {
      if (now < remaining.untilMs) return true;
    } else if (remaining.requests > 0) {
      remaining.requests--;
      return true;
    }
    this.byAgent.delete(agent);
    return false;
  }

  forget(agent: string): void {
    this.byAgent.delete(agent);
  }

  clear(): void {
    this.byAgent.clear();
  }
}
