/**
 * The end of a create or update: the wait for readiness when the inputs ask
 * for it, then the health check of a new deployment when the inputs declare
 * one. A deployment that fails either goes to onFailure (failure.ts); any
 * other failure from here on keeps the agent in the state with the pending
 * mark, so the next `up` checks on it instead of sending it again.
 */
import { progressReporter, WaitFailure, waitForReady, type WaitResult } from "../../core/readiness";
import type { Stored } from "../../core/resource-entry";
import { deploymentFailed, notReadyFailure, unhealthyFailure, type DeploymentFailure } from "./failure";
import { watchDeploymentHealth } from "./health-check";
import { incompleteError, type Step } from "./incomplete";
import { toOutputs } from "./outputs";
import { wantedDeploymentOf, type ServiceAgent } from "./service-agent";
import { failedPollNotes, watchedAgent } from "./watched-agent";

export interface Answered {
  /** The agent as the service answered the create or update, or as a resumed step read it; it names the wanted deployment. */
  agent: ServiceAgent;
}

/** Milliseconds left of the engine's limit for the step (none without one). */
export function remainingMs(step: Step): number | undefined {
  return step.deadline === undefined ? undefined : Math.max(0, step.deadline - Date.now());
}

/** The wait's limit: readyTimeoutSeconds, or what is left of the engine's limit for the operation when that ends first. */
export function waitLimitMs(step: Step): number {
  const own = step.inputs.readyTimeoutSeconds * 1000;
  const left = remainingMs(step);
  return left === undefined ? own : Math.min(own, left);
}

/** What a finished step stores, after waiting for readiness when `inputs.waitForReady` asks for it. */
export async function finish(step: Step, answered: Answered): Promise<Stored> {
  const { inputs, secretInputs } = step;
  const stored = (agent: ServiceAgent): Stored => ({ id: agent.name, outputs: toOutputs(inputs, agent, secretInputs), marks: { secretInputs } });
  if (!inputs.waitForReady) return stored(answered.agent);
  const limitMs = waitLimitMs(step);
  const wanted = wantedDeploymentOf(answered.agent);
  const result = await waitFor(step, answered.agent, wanted, limitMs);
  if (!result.ready) return deploymentFailed(step, await notReadyFailure(step, result, wanted, limitMs < inputs.readyTimeoutSeconds * 1000));
  const unhealthy = await checkHealth(step, result.value);
  if (unhealthy) return deploymentFailed(step, unhealthy);
  return stored(result.value);
}

/** Polls until the service serves `wanted` and it is ready. */
async function waitFor(step: Step, answered: ServiceAgent, wanted: string, timeoutMs: number): Promise<WaitResult<ServiceAgent>> {
  const { call } = step;
  const watched = watchedAgent(await call.service.client(), step.inputs.serviceName, wanted);
  try {
    return await waitForReady({
      watched,
      initial: answered,
      timeoutMs,
      gate: call.service.gate,
      signal: call.signal,
      progress: progressReporter(watched, (line) => call.log.info(line)),
      onFailedPoll: failedPollNotes(call, step.inputs.serviceName),
    });
  } catch (error) {
    const failure = error instanceof WaitFailure ? error : new WaitFailure(error, answered);
    throw incompleteError(step, failure.value ?? answered, failure.error);
  }
}

/**
 * The health check of a new deployment, once it is ready: none without
 * `healthCheck`, for a rollback's deployment, or when an update kept the
 * deployment the last ready spec runs (a scaling-only change). The failure
 * when it found a line.
 */
async function checkHealth(step: Step, agent: ServiceAgent): Promise<DeploymentFailure | undefined> {
  const { call, inputs } = step;
  const check = inputs.healthCheck;
  if (check === undefined || step.rollback || agent.activeDeploymentId === step.lastReady?.deploymentId) return undefined;
  const left = remainingMs(step);
  try {
    const result = await watchDeploymentHealth({
      client: await call.service.client(),
      agentName: inputs.serviceName,
      deploymentId: agent.activeDeploymentId,
      check,
      signal: call.signal,
      ...(left === undefined ? {} : { limitMs: left }),
      onStart: (line) => call.log.info(line),
    });
    return result.healthy ? undefined : await unhealthyFailure(step, agent, check, result);
  } catch (error) {
    throw incompleteError(step, agent, error);
  }
}
