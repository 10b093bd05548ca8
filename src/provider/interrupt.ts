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

/** Ends every wait now (a signal, or the engine's Cancel call to the native plugin), then exits. */
export function interruptWaits(reason: string): void {
  const error = new InterruptedError(reason);
  for (const reject of [...waiters]) reject(error);
  waiters.clear();
  // Leave time for the answers to reach the engine, then go as asked.
  setTimeout(() => process.exit(130), 2_000).unref();
}
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => interruptWaits(signal));
  }
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
