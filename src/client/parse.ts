/** Parsing an answer against its zod schema; a mismatch names the fields. */
import type { AnswerValidator } from "./answer-model";
import { ResponseValidationError } from "./errors";
import { loadOnce } from "./load-once";

/**
 * The zod schemas (schemas.ts), loaded at the first answer checked against
 * one rather than with the client: zod takes 50 to 120 ms to load, which a
 * destroy (its GETs read only the live sessions, session-count.ts; its
 * DELETEs have no answer to check) and a preview never pay.
 * Loaded once (load-once.ts): the answers of an up of hundreds of agents
 * each check against them.
 */
export const loadSchemas = loadOnce(() => import("./schemas"));

/** A ResponseValidationError naming one field of an answer checked by hand (log-result.ts, session-count.ts) and the type it lacks. */
export function failField(method: string, path: string, field: string, expected: string): never {
  throw new ResponseValidationError(method, path, [field], `${field}: expected ${expected}`);
}

/** The body as JSON, or a ResponseValidationError saying it is empty, truncated or not JSON. */
export function parseJsonBody(text: string, method: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const hint = text.length === 0 ? "an empty body" : `${text.length} bytes that are not JSON (truncated or not JSON)`;
    throw new ResponseValidationError(method, path, [], `expected a JSON body, got ${hint}`);
  }
}

export function parseAnswer<T>(schema: AnswerValidator<T>, text: string, method: string, path: string): T {
  const json = parseJsonBody(text, method, path);
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 10);
  const fields = issues.map((i) => (i.path.length > 0 ? i.path.map(String).join(".") : "(body)"));
  const detail = issues.map((i, n) => `${fields[n]}: ${i.message}`).join("; ");
  throw new ResponseValidationError(method, path, fields, detail);
}
