/**
 * Checking and encoding the logs query before anything is sent.
 *
 * The service takes startTime and endTime as whole Unix seconds, "after" and
 * "before" the timestamp. A Date is widened to whole seconds so that nothing
 * inside it is dropped: startTime rounds down, endTime rounds up (up to a
 * second more may come back at either edge).
 */
import { InputValidationError } from "./errors";
import { serviceNameProblem } from "./service-names";
import type { AgentLogsQuery } from "./request-types";

export const MAX_LOG_LIMIT = 1000;

/** Unix seconds of a bound: a Date's start rounds down, its end rounds up. */
export function boundSeconds(value: number | Date, edge: "start" | "end"): number {
  if (!(value instanceof Date)) return value;
  const exact = value.getTime() / 1000;
  return edge === "start" ? Math.floor(exact) : Math.ceil(exact);
}

const describeBound = (value: number | Date) => (value instanceof Date ? value.toISOString() : String(value));

function timeProblem(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "must be a valid Date" : undefined;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? undefined : "must be a non-negative integer of Unix seconds or a Date";
}

/** A query as a program or the engine may send it: any value in any member. */
export type UntypedLogsQuery = { [K in keyof AgentLogsQuery]?: unknown };

/** The members of `values` of the query's types, as a query of `agentName` (values of other types are left out: logsQueryFailures names them). */
export function typedLogsQuery(values: UntypedLogsQuery, agentName: string): AgentLogsQuery {
  const query: AgentLogsQuery = { agentName };
  const { limit, offset, startTime, endTime, deploymentId, query: search, order } = values;
  if (typeof limit === "number") query.limit = limit;
  if (typeof offset === "number") query.offset = offset;
  if (typeof startTime === "number" || startTime instanceof Date) query.startTime = startTime;
  if (typeof endTime === "number" || endTime instanceof Date) query.endTime = endTime;
  if (typeof deploymentId === "string") query.deploymentId = deploymentId;
  if (typeof search === "string") query.query = search;
  if (order === "asc" || order === "desc") query.order = order;
  return query;
}

/** Every rule the query breaks (empty when it is fine). */
export function logsQueryFailures(q: UntypedLogsQuery): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  const nameProblem = serviceNameProblem(q.agentName);
  if (nameProblem) failures.push({ property: "agentName", reason: nameProblem });
  if (q.limit !== undefined && !(typeof q.limit === "number" && Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= MAX_LOG_LIMIT)) {
    failures.push({ property: "limit", reason: `must be an integer from 1 to ${MAX_LOG_LIMIT}` });
  }
  if (q.offset !== undefined && !(typeof q.offset === "number" && Number.isInteger(q.offset) && q.offset >= 0)) {
    failures.push({ property: "offset", reason: "must be an integer ≥ 0" });
  }
  if (q.order !== undefined && q.order !== "asc" && q.order !== "desc") {
    failures.push({ property: "order", reason: 'must be "asc" or "desc"' });
  }
  if (q.deploymentId !== undefined && (typeof q.deploymentId !== "string" || q.deploymentId === "")) {
    failures.push({ property: "deploymentId", reason: "must be a non-empty string" });
  }
  if (q.query !== undefined && typeof q.query !== "string") failures.push({ property: "query", reason: "must be a string" });
  for (const key of ["startTime", "endTime"] as const) {
    const value = q[key];
    const problem = value === undefined ? undefined : timeProblem(value);
    if (problem) failures.push({ property: key, reason: problem });
  }
  const { startTime, endTime } = typedLogsQuery(q, "");
  if (startTime !== undefined && endTime !== undefined && !failures.some((f) => f.property === "startTime" || f.property === "endTime")) {
    const startMs = startTime instanceof Date ? startTime.getTime() : startTime * 1000;
    const endMs = endTime instanceof Date ? endTime.getTime() : endTime * 1000;
    if (startMs > endMs) {
      failures.push({
        property: "startTime",
        reason: `must not be after endTime (startTime ${describeBound(startTime)} > endTime ${describeBound(endTime)})`,
      });
    }
  }
  return failures;
}

/** Throws an InputValidationError naming every bad parameter of the query. */
export function checkLogsQuery(q: AgentLogsQuery): void {
  const failures = logsQueryFailures(q);
  if (failures.length > 0) throw new InputValidationError(failures);
}

export function logsQueryParams(q: AgentLogsQuery): Record<string, string | number | undefined> {
  return {
    limit: q.limit,
    offset: q.offset,
    deploymentId: q.deploymentId,
    query: q.query,
    order: q.order,
    startTime: q.startTime === undefined ? undefined : boundSeconds(q.startTime, "start"),
    endTime: q.endTime === undefined ? undefined : boundSeconds(q.endTime, "end"),
  };
}
