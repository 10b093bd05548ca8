/**
 * An interrupted provider process (SIGINT or SIGTERM, as the engine sends on
 * cancellation or shutdown) ends every wait at once, so the create or update
 * in flight answers with the agent's id (a partial result the engine keeps)
 * instead of dying with the agent unrecorded. Only inside the engine's
 * provider process: a program using the implementation keeps its own signals.
 */
import { insideProviderProcess } from "./engine-log";

export class InterruptedError extends Error {
  override readonly name = "InterruptedError";
  constructor(signal: string) {
    super(`the provider process received ${signal} while waiting for readiness`);
  }
}

const waiters = new Set<(error: InterruptedError) => void>();

/** Ends every wait now: on the engine's Cancel call to the native plugin, or on a signal. */
export function interruptWaits(reason: string): void {
  const error = new InterruptedError(reason);
  for (const reject of [...waiters]) reject(error);
  waiters.clear();
}

let installed = false;

/**
 * On SIGINT or SIGTERM: with no wait in flight the process exits at once, as
 * it would without a handler (the engine sends these when it closes its
 * plugins, and waits for them to go). With waits in flight they answer first,
 * and the process exits a moment later, once the answers are on their way.
 */
function onSignal(signal: string): void {
  if (waiters.size === 0) process.exit(130);
  interruptWaits(signal);
  setTimeout(() => process.exit(130), 500);
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => onSignal(signal));
}

/** A promise that rejects when the process is interrupted, and a function that stops listening. */
export function whenInterrupted(): { interrupted: Promise<never>; dispose: () => void } {
  if (!insideProviderProcess()) return { interrupted: new Promise<never>(() => undefined), dispose: () => undefined };
  install();
  let reject: (error: InterruptedError) => void = () => undefined;
  const interrupted = new Promise<never>((_, r) => {
    reject = r;
  });
  interrupted.catch(() => undefined);
  waiters.add(reject);
  return { interrupted, dispose: () => waiters.delete(reject) };
}
