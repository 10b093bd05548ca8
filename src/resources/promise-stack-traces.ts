/**
 * The Node SDK gives every property of a resource four promises and, for its
 * promise-leak report only, captures a stack trace for each (about 80 for
 * an Agent): the largest part of a program's own cost in a no-op preview of
 * many resources. While a resource class registers its resource, stack
 * traces are switched off, unless PULUMI_DEBUG_PROMISE_LEAKS asks for them. The
 * resource's source position (kept in the state) is unaffected: the SDK
 * raises the limit itself while it records it.
 */

/** The limit to restore, or undefined when stack traces stay on. */
export function pausePromiseStackTraces(): number | undefined {
  if (process.env["PULUMI_DEBUG_PROMISE_LEAKS"]) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
  if (!descriptor || !descriptor.writable || typeof descriptor.value !== "number") return undefined;
  const limit = descriptor.value;
  Error.stackTraceLimit = 0;
  return limit;
}

export function resumePromiseStackTraces(limit: number | undefined): void {
  if (limit !== undefined) Error.stackTraceLimit = limit;
}
