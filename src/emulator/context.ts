/**
 * Everything one running emulator holds: the store, the faults, the rate
 * limit, the counters and the request log; persisting and resetting them.
 */
import { Counters } from "./counters";
import type { Stats } from "./counters";
import { Faults } from "./faults";
import { GetOutages } from "./get-outage";
import { loadStore, saveStore } from "./persistence";
import { RateLimit } from "./rate-limit";
import type { ReadingSwitches } from "./reading";
import { RequestLog } from "./request-log";
import type { Rollout } from "./rollout-modes";
import { Store } from "./store";

export interface ContextOptions {
  readyAfterMs: number;
  rollout: Rollout;
  /** Secret sets given at start: kept by a reset without `all`. */
  secretSets: Record<string, string[]>;
  stateFile?: string;
  switches: ReadingSwitches;
}

export class EmulatorContext {
  readonly store: Store;
  readonly faults = new Faults();
  readonly rateLimit = new RateLimit();
  readonly counters = new Counters();
  readonly requestLog = new RequestLog();
  readonly switches: ReadingSwitches;
  readonly outages: GetOutages;

  constructor(private readonly options: ContextOptions) {
    this.store = new Store(options.readyAfterMs, options.rollout);
    this.switches = options.switches;
    this.outages = new GetOutages(options.switches.getOutageAfterCreate);
    this.seedStartSets();
    if (options.stateFile !== undefined) loadStore(this.store, options.stateFile);
  }

  private seedStartSets(): void {
    for (const [name, fields] of Object.entries(this.options.secretSets)) this.store.secretSets.set(name, [...fields]);
  }

  /** Writes the state file (when there is one); called before a mutation is acknowledged. */
  persist(): void {
    if (this.options.stateFile !== undefined) saveStore(this.store, this.options.stateFile);
  }

  stats(): Stats {
    const c = this.counters;
    return {
      connections: c.connections,
      apiConnections: c.apiConnections,
      requests: c.requests,
      byRoute: { ...c.byRoute },
      rateLimited: this.rateLimit.limited,
      faultsFired: this.faults.fired,
    };
  }

  /** Clears agents (with their GET outages), logs, faults, rate limit, counters and the request log; secret sets go back to those given at start (none with `all`). */
  reset(all: boolean): void {
    this.store.agents.clear();
    this.store.logs.clear();
    this.outages.clear();
    this.store.secretSets.clear();
    if (!all) this.seedStartSets();
    this.faults.clear();
    this.faults.fired = 0;
    this.rateLimit.set(undefined);
    this.rateLimit.limited = 0;
    this.counters.reset();
    this.requestLog.clear();
    this.persist();
  }
}
