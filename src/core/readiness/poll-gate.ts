/**
 * One gate for every readiness poll of a provider object (in the dynamic
 * provider, of the whole process): at most `maxInFlight` polls are in flight
 * at once, the others queue in the order they fell due. A stack of hundreds
 * of resources then sends its polls as a steady stream rather than in bursts,
 * and a slow service gets fewer requests, not more: the rate follows its
 * answers. A poll that waited in the queue still reads the newest state, so
 * readiness is noticed at the first poll after it, as without the gate.
 */
export class PollGate {
  private inFlight = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly maxInFlight = 16) {}

  /** Runs `poll` when a place is free; an aborted signal leaves the queue with its reason. */
  async run<T>(poll: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.inFlight >= this.maxInFlight) await this.place(signal);
    else this.inFlight++;
    try {
      return await poll();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.inFlight--;
    }
  }

  /** Waits for a place handed over by a finishing poll (the count stays the same). */
  private place(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const take = () => {
        signal?.removeEventListener("abort", leave);
        resolve();
      };
      const leave = () => {
        const at = this.queue.indexOf(take);
        if (at >= 0) this.queue.splice(at, 1);
        reject(signal?.reason);
      };
      this.queue.push(take);
      signal?.addEventListener("abort", leave, { once: true });
    });
  }
}
