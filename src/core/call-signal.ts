/**
 * The signal of one call to the service, aborted with the provider's own
 * (its cancel) and with the same reason. The call's sleeps, its poll's place
 * and its requests listen on this signal, so the provider's signal holds one
 * listener per call in flight rather than one per sleep and request: adding
 * or removing an abort listener walks the target's list of listeners, so with
 * hundreds of agents waiting at once each of their many listeners would cost
 * a walk of hundreds. `release()` removes the call's listener when it ends.
 */
import { setMaxListeners } from "node:events";

export interface CallSignal {
  signal: AbortSignal;
  release(): void;
}

export function callSignal(parent: AbortSignal): CallSignal {
  const own = new AbortController();
  // A call's verb may run a few requests at once (a readiness poll, a log read, a health check's calls).
  setMaxListeners(0, own.signal);
  if (parent.aborted) {
    own.abort(parent.reason);
    return { signal: own.signal, release: () => undefined };
  }
  const forward = () => own.abort(parent.reason);
  parent.addEventListener("abort", forward, { once: true });
  return { signal: own.signal, release: () => parent.removeEventListener("abort", forward) };
}
