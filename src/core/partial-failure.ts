/**
 * A create or update that reached the service but did not finish: its error
 * carries the resource's id and the outputs to keep, and each host answers
 * it as the engine's "initialization failed", so the engine keeps the
 * resource in the state. The Agent's is AgentIncompleteError
 * (src/client/errors.ts); any error of this shape is one.
 */
import type { Props } from "./resource-entry";

export interface PartialFailure {
  id: string;
  properties: Props;
  reasons?: readonly string[];
}

export function isPartialFailure(error: unknown): error is Error & PartialFailure {
  if (!(error instanceof Error) || !("id" in error) || !("properties" in error)) return false;
  return typeof error.id === "string" && error.id !== "" && typeof error.properties === "object" && error.properties !== null;
}
