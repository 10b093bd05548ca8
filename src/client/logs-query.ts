/** Checking and encoding the logs query of spec 4.2 before anything is sent. */
import { InputValidationError } from "./errors";
import { serviceNameProblem } from "../model";
import type { AgentLogsQuery } from "./schemas";

export const MAX_LOG_LIMIT = 1000;

function seconds(value: number | Date): number {
  return value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
}

function timeProblem(value: number | Date): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "must be a valid Date" : undefined;
  return Number.isInteger(value) && value >= 0 ? undefined : "must be a non-negative integer of Unix seconds or a Date";
}

/** Every rule the query breaks (empty when it is fine). */
export function logsQueryFailures(q: AgentLogsQuery): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  const nameProblem = serviceNameProblem(q.agentName);
  if (nameProblem) failures.push({ property: "agentName", reason: nameProblem });
  if (q.limit !== undefined && !(Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= MAX_LOG_LIMIT)) {
    failures.push({ property: "limit", reason: `must be an integer from 1 to ${MAX_LOG_LIMIT}` });
  }
  if (q.offset !== undefined && !(Number.isInteger(q.offset) && q.offset >= 0)) {
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
    startTime: q.startTime === undefined ? undefined : seconds(q.startTime),
    endTime: q.endTime === undefined ? undefined : seconds(q.endTime),
  };
}
