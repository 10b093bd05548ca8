/**
 * The query string of GET /agents/{name}/logs: limit 1..1000
 * (default 10), offset ≥ 0 (default 0), order asc|desc (default desc),
 * startTime/endTime as integer Unix seconds, deploymentId, query.
 */
import type { LogQuery } from "./log-store";
import type { Violation } from "./wire";

export const MAX_LOG_LIMIT = 1000;
const INT = /^\d+$/;

export function parseLogsQuery(params: URLSearchParams): { failures: Violation[]; query: LogQuery } {
  const failures: Violation[] = [];
  const int = (name: string, min: number, max: number): number | undefined => {
    const raw = params.get(name);
    if (raw === null) return undefined;
    const value = Number(raw);
    if (!INT.test(raw) || value < min || value > max) {
      failures.push({ property: name, reason: `must be an integer from ${min} to ${max}` });
      return undefined;
    }
    return value;
  };
  const limit = int("limit", 1, MAX_LOG_LIMIT) ?? 10;
  const offset = int("offset", 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const startTime = int("startTime", 0, Number.MAX_SAFE_INTEGER);
  const endTime = int("endTime", 0, Number.MAX_SAFE_INTEGER);
  const order = params.get("order") ?? "desc";
  if (order !== "asc" && order !== "desc") failures.push({ property: "order", reason: 'must be "asc" or "desc"' });
  const query: LogQuery = { limit, offset, order: order === "asc" ? "asc" : "desc" };
  if (startTime !== undefined) query.startTime = startTime;
  if (endTime !== undefined) query.endTime = endTime;
  const deploymentId = params.get("deploymentId");
  if (deploymentId !== null) query.deploymentId = deploymentId;
  const text = params.get("query");
  if (text !== null) query.query = text;
  return { failures, query };
}
