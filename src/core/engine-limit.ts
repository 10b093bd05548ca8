/**
 * The engine's limit for one operation (`customTimeouts`, which Pulumi
 * passes to the native plugin as the create, update or delete request's
 * timeout): a request of the operation is aborted when it ends, with an
 * error that names the limit. The readiness wait and the health check end at
 * the same deadline by their own limits instead, so that a deployment not
 * ready in time is a failed deployment rather than an interrupted request.
 */
import type { Call } from "./resource-entry";

export class EngineLimitError extends Error {
  override readonly name = "EngineLimitError";
}

/** `call.signal`, also aborted at `deadline` (epoch ms) with an error naming customTimeouts.<operation>. */
export function signalWithin(call: Call, deadline: number | undefined, operation: "create" | "update" | "delete"): AbortSignal {
  if (deadline === undefined) return call.signal;
  const limit = new AbortController();
  const seconds = Math.round((call.timeoutMs ?? 0) / 1000);
  const timer = setTimeout(
    () => limit.abort(new EngineLimitError(`the engine's customTimeouts.${operation} (${seconds} s) ended the ${operation}'s request`)),
    Math.max(0, deadline - Date.now()),
  );
  timer.unref();
  return AbortSignal.any([call.signal, limit.signal]);
}
