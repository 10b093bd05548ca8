/**
 * Cancellation of the calls in flight: on the engine's Cancel call to the
 * native plugin, or on SIGINT or SIGTERM (which the engine sends on
 * cancellation or shutdown). A create or update then answers with the
 * resource's id (a partial result the engine keeps) instead of dying with
 * the resource unrecorded.
 */

export class InterruptedError extends Error {
  override readonly name = "InterruptedError";
  constructor(reason: string) {
    super(`the provider process received ${reason} while waiting on the service`);
  }
}

export interface Cancellable {
  /** How many calls that talk to the service are in flight. */
  busy(): number;
  cancel(reason: string): void;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * On SIGINT or SIGTERM: with no call in flight the process exits at once, as
 * it would without a handler (the engine sends these when it closes its
 * plugins, and waits for them to go). With calls in flight they are
 * cancelled first, and the process exits a moment later, once their answers
 * are on their way. Installed only by a provider process's entry point.
 */
export function exitOnSignals(target: Cancellable): void {
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      if (target.busy() === 0) process.exit(130);
      target.cancel(signal);
      setTimeout(() => process.exit(130), 500);
    });
  }
}
