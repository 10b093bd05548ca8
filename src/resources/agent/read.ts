/**
 * Read (refresh, and `Agent.get` or an import when no state is passed): the
 * agent as the service holds it, the inputs rebuilt from it. An agent
 * deleted outside Pulumi leaves the state; one asked for by name that does
 * not exist is an AgentNotFoundError. Delete (destroy, replace, a
 * rolled-back create), with the agent's live sessions in mind: the agent is
 * read first; while it has live sessions and `drainSeconds` allows, the
 * delete waits for them to end, reading the count every
 * DRAIN_POLL_INTERVAL_MS with a status line on the resource's row, then
 * deletes (within the engine's customTimeouts.delete when given) and warns
 * how many sessions it cut. A 404 at any point counts as deleted.
 */
import { DRAIN_POLL_INTERVAL_MS, READ_PATIENCE_MS } from "../../client/delays";
import { AgentNotFoundError, NotFoundError } from "../../client/errors";
import { isTransientPollFailure } from "../../client/retry";
import { abortableSleep } from "../../core/abortable-sleep";
import { signalWithin } from "../../core/engine-limit";
import { WaitFailure, waitForReady } from "../../core/readiness";
import type { Call, DeleteRequest, ReadRequest, ReadResult } from "../../core/resource-entry";
import { describeAgent, failedPollNotes, inputsFromAgent, pendingDeploymentOf, toOutputs, watchedAgent } from "./state";
import type { AgentState, ServiceAgent } from "./state";

/**
 * GET /agents/{name}, riding out transient failures (not a 404: the agent is
 * gone) for up to READ_PATIENCE_MS: the readiness wait's loop, ready at the
 * first answer, so a read and a wait share one retry policy.
 */
export async function getAgent(call: Call, name: string): Promise<ServiceAgent> {
  const watched = { ...watchedAgent(call.client, name), isReady: () => true };
  try {
    const result = await waitForReady({
      watched,
      initial: undefined,
      timeoutMs: READ_PATIENCE_MS,
      gate: call.gate,
      signal: call.signal,
      transient: (error) => !(error instanceof NotFoundError) && isTransientPollFailure(error),
      onFailedPoll: failedPollNotes(call, name),
    });
    if (result.ready) return result.value;
    throw result.lastError;
  } catch (error) {
    throw error instanceof WaitFailure ? error.error : error;
  }
}

export async function readVerb(request: ReadRequest<AgentState>): Promise<ReadResult<AgentState>> {
  const { id, olds, marks } = request;
  const adopting = olds?.inputs.serviceName === undefined;
  let agent: ServiceAgent;
  try {
    agent = await getAgent(request, id);
  } catch (error) {
    if (error instanceof NotFoundError) {
      if (adopting) throw new AgentNotFoundError(id, error);
      return undefined;
    }
    throw error;
  }
  const pending = pendingDeploymentOf(agent);
  if (pending !== undefined) {
    // Mid-rollout, the manifest describes the pending deployment, so the inputs are what the service converges to: no diff once it serves.
    await request.log.warning(
      `agent-hosting: agent "${agent.name}" serves deployment ${agent.activeDeploymentId} while deployment ${pending} is pending at the service ` +
        `(it has not validated yet, or never does: ${describeAgent(agent)}); the state records both, and its manifest describes the pending one`,
    );
  }
  const inputs = inputsFromAgent(agent, adopting ? {} : (olds?.inputs ?? {}));
  return { id: agent.name, outputs: toOutputs(inputs, agent), marks, inputs: { ...inputs, name: agent.name } };
}

/** Delete: the agent's live sessions get up to the state's drainSeconds to end (deleteDraining). */
export async function deleteVerb(request: DeleteRequest<AgentState>): Promise<void> {
  const { id, olds } = request;
  const deadline = request.timeoutMs === undefined ? undefined : Date.now() + request.timeoutMs;
  const drain = olds?.inputs.drainSeconds;
  await deleteDraining(request, id, typeof drain === "number" ? drain : 0, signalWithin(request, deadline, "delete"), deadline);
}

const sessions = (n: number): string => (n === 1 ? "1 live session" : `${n} live sessions`);

/** The part of the engine's limit for a delete (customTimeouts.delete) kept for the DELETE itself: at most half of it. */
const DELETE_RESERVE_MS = 3_000;

/** `deadline`: epoch ms at which the engine's limit for the delete ends (customTimeouts.delete), if any. */
export async function deleteDraining(call: Call, name: string, drainSeconds: number, signal: AbortSignal, deadline?: number): Promise<void> {
  const { client, log } = call;
  const liveCount = async (): Promise<number | undefined> => {
    try {
      return await client.getActiveSessionCount(name, { signal, onRetry: log.retry });
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };
  let count = await liveCount();
  if (count === undefined) return;
  const started = Date.now();
  // Under the engine's limit the drain ends early enough for the DELETE to go out before that limit ends it too.
  const reserve = deadline === undefined ? 0 : Math.min(DELETE_RESERVE_MS, Math.max(0, deadline - started) / 2);
  const until = Math.min(started + drainSeconds * 1000, deadline === undefined ? Number.POSITIVE_INFINITY : deadline - reserve);
  while (count > 0 && drainSeconds > 0 && Date.now() < until) {
    const waited = Math.round((Date.now() - started) / 1000);
    await log.info(`agent "${name}": ${sessions(count)}; waiting for them to end before the delete, ${waited} s of drainSeconds ${drainSeconds} s`);
    await abortableSleep(Math.min(DRAIN_POLL_INTERVAL_MS, Math.max(0, until - Date.now())), signal);
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
