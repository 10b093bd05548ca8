/**
 * A fast check of the log result shape: pages of up to 1000
 * entries are read in bulk, so this hand-written loop replaces the generic
 * schema walk on that path. Same contract: every documented field present
 * with its type, else a ResponseValidationError naming the field.
 */
import { failField, parseJsonBody } from "./parse";
import type { LogResult } from "./answer-types";

export function parseLogResult(text: string, method: string, path: string): LogResult {
  const json: unknown = parseJsonBody(text, method, path);
  checkLogResult(json, method, path);
  return json;
}

/** Throws a ResponseValidationError naming the first field that breaks the shape. */
function checkLogResult(json: unknown, method: string, path: string): asserts json is LogResult {
  if (typeof json !== "object" || json === null || Array.isArray(json)) failField(method, path, "(body)", "object");
  const body = json as Record<string, unknown>;
  const total = body["total"] as Record<string, unknown> | undefined;
  if (typeof total !== "object" || total === null) failField(method, path, "total", "object");
  if (typeof total["value"] !== "number" || !Number.isInteger(total["value"])) failField(method, path, "total.value", "integer");
  if (typeof total["relation"] !== "string") failField(method, path, "total.relation", "string");
  const logs = body["logs"];
  if (!Array.isArray(logs)) failField(method, path, "logs", "array");
  for (let i = 0; i < logs.length; i++) {
    const entry = logs[i] as Record<string, unknown> | null;
    if (typeof entry !== "object" || entry === null) failField(method, path, `logs.${i}`, "object");
    if (typeof entry["log"] !== "string") failField(method, path, `logs.${i}.log`, "string");
    if (typeof entry["timestamp"] !== "string") failField(method, path, `logs.${i}.timestamp`, "string");
  }
}
