/**
 * The end of a create or update: the wait for readiness when the inputs ask
 * for it. Any failure from here on keeps the agent in the state with the
 * pending mark, so the next `up` checks on it instead of sending it again.
 */
import { progressReporter, WaitFailure, waitForReady, type WaitResult } from "../../core/readiness";
import type { Stored } from "../../core/resource-entry";
import { incompleteError, notReadyError, type Step } from "./incomplete";
import { toOutputs } from "./outputs";
import type { ServiceAgent } from "./service-agent";
import { watchedAgent } from "./watched-agent";

export interface Answered {
  /** The agent as the service answered the create or update (none: a resumed create not found yet). */
  agent: ServiceAgent | undefined;
  /** For an update that made a new deployment: the one to wait for. */
  deploymentId?: string | undefined;
}

/** The wait's limit: readyTimeoutSeconds, or the engine's timeout for the operation when that ends first. */
export function waitLimitMs(step: Step): number {
  const own = step.inputs.readyTimeoutSeconds * 1000;
  return step.call.timeoutMs === undefined ? own : Math.min(own, step.call.timeoutMs);
}

/** What a finished step stores, after waiting for readiness when `inputs.waitForReady` asks for it. */
export async function finish(step: Step, answered: Answered): Promise<Stored> {
  const { inputs, secretInputs } = step;
  const stored = (agent: ServiceAgent): Stored => ({ id: agent.name, outputs: toOutputs(inputs, agent, secretInputs), marks: { secretInputs } });
  if (!inputs.waitForReady && answered.agent !== undefined) return stored(answered.agent);
  const result = await waitFor(step, answered);
  if (!result.ready) throw await notReadyError(step, result);
  return stored(result.value);
}

async function waitFor(step: Step, answered: Answered): Promise<WaitResult<ServiceAgent>> {
  const { call } = step;
  const watched = watchedAgent(await call.service.client(), step.inputs.serviceName, answered.deploymentId);
  try {
    return await waitForReady({
      watched,
      initial: answered.agent,
      timeoutMs: waitLimitMs(step),
      gate: call.service.gate,
      signal: call.signal,
      progress: progressReporter(watched, (line) => call.log.info(line)),
    });
  } catch (error) {
    const failure = error instanceof WaitFailure ? error : new WaitFailure(error, answered.agent);
    throw incompleteError(step, failure.value ?? answered.agent, failure.error);
  }
}
