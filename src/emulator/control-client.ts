/** A typed helper for the emulator's /_emulator/ control endpoints, for tests and benchmarks. */
import type { FaultSpec } from "./faults";
import type { Stats } from "./counters";
import type { RequestRecord } from "./request-log";
import type { RateLimitSpec } from "./rate-limit";

export interface EmulatorAgentSummary {
  name: string;
  activeDeploymentId: string;
  /** The latest deployment (the active one, unless a rolling update's new one has not taken over). */
  desiredDeploymentId: string;
  /** readyAt null: it never becomes ready (an image tagged `fail`, or superseded by a newer update). */
  deployments: { id: string; image: string; readyAt: number | null; createdAt: number }[];
}

export interface AppendLogsOptions {
  /** Default: the agent's active deployment. */
  deploymentId?: string;
  /** Lines read `${prefix} ${i}`; default "session event". */
  prefix?: string;
  /** Epoch milliseconds of the first line; default now (later lines then stay after these). */
  startMs?: number;
  /** Milliseconds between lines (fractions allowed); default 0.001 (1 µs). */
  intervalMs?: number;
}

export class EmulatorControl {
  /** `baseUrl` is http://HOST:PORT (the emulator's `baseUrl`). */
  constructor(private readonly baseUrl: string) {}

  private async call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { "content-type": "application/json" };
    }
    const response = await fetch(`${this.baseUrl.replace(/\/+$/, "")}/_emulator${route}`, init);
    const json = (await response.json()) as T;
    if (!response.ok) throw new Error(`emulator control ${method} ${route} failed: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  seedSecretSet(name: string, fieldNames: string[]): Promise<unknown> {
    return this.call("POST", "/secret-sets", { name, fieldNames });
  }
  appendLogs(agent: string, count: number, options: AppendLogsOptions = {}): Promise<{ appended: number }> {
    return this.call("POST", `/agents/${encodeURIComponent(agent)}/logs`, { count, ...options });
  }
  /** Every log entry of an agent, oldest first, with its deployment. */
  dumpLogs(agent: string): Promise<{ entries: { deploymentId: string; timestamp: string; log: string }[] }> {
    return this.call("GET", `/agents/${encodeURIComponent(agent)}/logs`);
  }
  /** The agent's `activeSessionCount` becomes `count`; with `endAfterMs`, it drops to 0 that many milliseconds later. */
  setSessions(agent: string, count: number, endAfterMs?: number): Promise<{ activeSessionCount: number; endsAt: number | null }> {
    return this.call("POST", `/agents/${encodeURIComponent(agent)}/sessions`, endAfterMs === undefined ? { count } : { count, endAfterMs });
  }
  listAgents(): Promise<{ agents: EmulatorAgentSummary[] }> {
    return this.call("GET", "/agents");
  }
  injectFault(fault: FaultSpec): Promise<unknown> {
    return this.call("POST", "/faults", fault);
  }
  clearFaults(): Promise<unknown> {
    return this.call("DELETE", "/faults");
  }
  setRateLimit(spec: RateLimitSpec | { disabled: true }): Promise<unknown> {
    return this.call("POST", "/rate-limit", spec);
  }
  stats(): Promise<Stats> {
    return this.call("GET", "/stats");
  }
  requests(): Promise<{ requests: RequestRecord[] }> {
    return this.call("GET", "/requests");
  }
  reset(all = false): Promise<unknown> {
    return this.call("POST", "/reset", { all });
  }
}
