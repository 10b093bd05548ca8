/**
 * Deleting an agent (destroy, replace, a rolled-back create) with its live
 * sessions in mind: the agent is read first; while it has live sessions and
 * `drainSeconds` allows, the delete waits for them to end, reading the count
 * every DRAIN_POLL_INTERVAL_MS with a status line on the resource's row, then
 * deletes and warns how many sessions it cut. A 404 at any point counts as
 * deleted.
 */
import { setTimeout as sleepFor } from "node:timers/promises";
import { DRAIN_POLL_INTERVAL_MS } from "../../client/delays";
import { NotFoundError } from "../../client/errors";
import type { Call } from "../../core/resource-entry";

const sessions = (n: number): string => (n === 1 ? "1 live session" : `${n} live sessions`);

/** `deadline`: epoch ms at which the engine's limit for the delete ends (customTimeouts.delete), if any. */
export async function deleteDraining(call: Call, name: string, drainSeconds: number, signal: AbortSignal, deadline?: number): Promise<void> {
  const { client, log } = call;
  const liveCount = async (): Promise<number | undefined> => {
    try {
      return (await client.getAgent(name, { signal, onRetry: log.retry })).activeSessionCount ?? 0;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };
  let count = await liveCount();
  if (count === undefined) return;
  const started = Date.now();
  const until = Math.min(started + drainSeconds * 1000, deadline ?? Number.POSITIVE_INFINITY);
  while (count > 0 && drainSeconds > 0 && Date.now() < until) {
    const waited = Math.round((Date.now() - started) / 1000);
    await log.info(`agent "${name}": ${sessions(count)}; waiting for them to end before the delete, ${waited} s of drainSeconds ${drainSeconds} s`);
    await sleepFor(Math.min(DRAIN_POLL_INTERVAL_MS, Math.max(0, until - Date.now())), undefined, { signal }).catch(() => signal.throwIfAborted());
    count = await liveCount();
    if (count === undefined) return;
  }
  try {
    await client.deleteAgent(name, { signal, onRetry: log.retry });
  } catch (error) {
    if (error instanceof NotFoundError) return;
    throw error;
  }
  if (count === 0) return;
  const cut = count === 1 ? "1 live session was cut" : `${count} live sessions were cut`;
  const advice =
    drainSeconds === 0
      ? "(drainSeconds 0); set drainSeconds to let them end first"
      : `(they outlasted drainSeconds ${drainSeconds} s${until < started + drainSeconds * 1000 ? ", cut short by the engine's customTimeouts.delete" : ""})`;
  await log.warning(`agent-hosting: agent "${name}": ${cut} by the delete ${advice}`);
}
