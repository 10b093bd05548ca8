/**
 * An agent's live sessions, read from GET /agents/{name}: what a delete
 * waits for and reports (src/resources/agent/read.ts). Checked by hand, as
 * log-result.ts checks log pages, rather than by the agent's zod schema:
 * the delete relies on this one member, and a destroy then never loads zod
 * (parse.ts), 50 to 120 ms of the provider's main thread before its first
 * DELETE. The member's contract is the schema's: an integer when present;
 * absent or null counts as no session.
 */
import { failField, parseJsonBody } from "./parse";

export function parseActiveSessionCount(text: string, method: string, path: string): number {
  const json: unknown = parseJsonBody(text, method, path);
  if (typeof json !== "object" || json === null || Array.isArray(json)) failField(method, path, "(body)", "object");
  const count = (json as Record<string, unknown>)["activeSessionCount"];
  if (count === undefined || count === null) return 0;
  if (typeof count !== "number" || !Number.isInteger(count)) failField(method, path, "activeSessionCount", "integer");
  return count;
}
