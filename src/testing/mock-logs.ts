/**
 * The log lines a test gives, kept in the emulator's log store
 * (src/emulator/log-store.ts), which applies a logs query as the service
 * does: `query`, `deploymentId`, the time bounds, `order`, `offset`, `limit`.
 */
import type { AgentLogsQuery } from "../client/request-types";
import { LogStore } from "../emulator/log-store";
import { isoNs } from "../emulator/time";
import { MOCK_TIME_NS } from "./mock-clock";
import type { MockLogLine } from "./options";

const SECOND_NS = 1_000_000_000n;

/** Epoch nanoseconds of an ISO 8601 time with up to nine fraction digits. */
function isoToNs(text: string): bigint {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  const ms = Date.parse(match ? `${match[1]}${match[3]}` : text);
  if (Number.isNaN(ms)) throw new Error(`agentHostingMocks: log timestamp "${text}" is not an ISO 8601 time`);
  return BigInt(ms) * 1_000_000n + BigInt((match?.[2] ?? "").padEnd(9, "0"));
}

const seconds = (value: number | Date | undefined, round: (n: number) => number): number | undefined =>
  value instanceof Date ? round(value.getTime() / 1000) : value;

/**
 * The agent's lines in a log store: a line without a time is one second
 * after the line before it (the first at MOCK_TIME), a line without a
 * deployment is the agent's active deployment's (none when it has none).
 */
function storeOf(agent: string, lines: readonly MockLogLine[], activeDeploymentId: string | undefined): LogStore {
  const store = new LogStore();
  lines.forEach((line, index) => {
    const entry = typeof line === "string" ? { log: line } : line;
    const ns = entry.timestamp === undefined ? MOCK_TIME_NS + BigInt(index) * SECOND_NS : isoToNs(entry.timestamp);
    store.add(agent, { log: entry.log, ns, deploymentId: entry.deploymentId ?? activeDeploymentId ?? "" });
  });
  return store;
}

/** One page of `query` over the agent's `lines`, as the service answers it. */
export function logPage(
  lines: readonly MockLogLine[],
  activeDeploymentId: string | undefined,
  query: AgentLogsQuery,
): { total: { value: number; relation: string }; logs: { log: string; timestamp: string }[] } {
  const store = storeOf(query.agentName, lines, activeDeploymentId);
  const start = seconds(query.startTime, Math.floor);
  const end = seconds(query.endTime, Math.ceil);
  const page = store.query(query.agentName, {
    limit: query.limit ?? 10,
    offset: query.offset ?? 0,
    order: query.order ?? "desc",
    ...(query.deploymentId !== undefined && { deploymentId: query.deploymentId }),
    ...(query.query !== undefined && { query: query.query }),
    ...(start !== undefined && { startTime: start }),
    ...(end !== undefined && { endTime: end }),
  });
  return { total: page.total, logs: page.logs.map((e) => ({ log: e.log, timestamp: isoNs(e.ns) })) };
}
