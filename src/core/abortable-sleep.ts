/**
 * The one sleep of the provider's waits (readiness, health checks, the
 * drain before a delete): `ms` on the global timer, or until `signal` is
 * aborted, which rejects with the signal's own reason. The global timer is
 * the one vitest's fake clock replaces, so a wait's schedule is tested
 * exactly.
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
