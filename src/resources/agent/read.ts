/**
 * Read (refresh, and `Agent.get` or an import when no state is passed): the
 * agent as the service holds it, the inputs rebuilt from it. An agent
 * deleted outside Pulumi leaves the state; one asked for by name that does
 * not exist is an AgentNotFoundError. Delete: DELETE /agents/{name}, within
 * the engine's customTimeouts.delete when given; an agent already gone
 * counts as deleted.
 */
import { READ_PATIENCE_MS } from "../../client/delays";
import { AgentNotFoundError, NotFoundError } from "../../client/errors";
import { isTransientPollFailure } from "../../client/retry";
import { signalWithin } from "../../core/engine-limit";
import { WaitFailure, waitForReady } from "../../core/readiness";
import type { Call, DeleteRequest, ReadRequest, ReadResult } from "../../core/resource-entry";
import { inputsFromAgent, toOutputs } from "./outputs";
import type { AgentState } from "./outputs";
import { pendingDeploymentOf } from "./service-agent";
import type { ServiceAgent } from "./service-agent";
import { deleteDraining } from "./drain";
import { describeAgent, failedPollNotes, watchedAgent } from "./watched-agent";

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

/** Delete: the agent's live sessions get up to the state's drainSeconds to end (drain.ts). */
export async function deleteVerb(request: DeleteRequest<AgentState>): Promise<void> {
  const { id, olds } = request;
  const deadline = request.timeoutMs === undefined ? undefined : Date.now() + request.timeoutMs;
  const drain = olds?.inputs.drainSeconds;
  await deleteDraining(request, id, typeof drain === "number" ? drain : 0, signalWithin(request, deadline, "delete"), deadline);
}
