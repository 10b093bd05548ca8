/**
 * The end of a create or update: the wait for readiness when the inputs ask
 * for it, then the health check of a new deployment when the inputs declare
 * one. A deployment that fails either is described here and goes to
 * onFailure (on-failure.ts); any other failure from here on keeps the agent
 * in the state with the pending mark, so the next `up` checks on it instead
 * of sending it again.
 */
import { notReadyMessage, progressReporter, WaitFailure, waitForReady } from "../../core/readiness";
import type { NotReady, WaitResult } from "../../core/readiness";
import type { Stored } from "../../core/resource-entry";
import { watchDeploymentHealth } from "./health-check";
import type { HealthCheck, HealthResult } from "./health-check";
import { deploymentFailed } from "./on-failure";
import type { DeploymentFailure } from "./on-failure";
import { toOutputs } from "./outputs";
import type { AgentState } from "./outputs";
import { wantedDeploymentOf } from "./service-agent";
import type { ServiceAgent } from "./service-agent";
import { incompleteError, remainingMs } from "./step";
import type { Step } from "./step";
import { failedPollNotes, watchedAgent } from "./watched-agent";

export interface Answered {
  /** The agent as the service answered the create or update, or as a resumed step read it; it names the wanted deployment. */
  agent: ServiceAgent;
}

/** The wait's limit: readyTimeoutSeconds, or what is left of the engine's limit for the operation when that ends first. */
export function waitLimitMs(step: Step): number {
  const own = step.inputs.readyTimeoutSeconds * 1000;
  const left = remainingMs(step);
  return left === undefined ? own : Math.min(own, left);
}

/** What a finished step stores, after waiting for readiness when `inputs.waitForReady` asks for it. */
export async function finish(step: Step, answered: Answered): Promise<Stored<AgentState>> {
  const { inputs, secretInputs } = step;
  const stored = (agent: ServiceAgent): Stored<AgentState> => ({ id: agent.name, outputs: toOutputs(inputs, agent), marks: { secretInputs } });
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
  const watched = watchedAgent(call.client, step.inputs.serviceName, wanted);
  try {
    return await waitForReady({
      watched,
      initial: answered,
      timeoutMs,
      gate: call.gate,
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
      client: call.client,
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

const seconds = (ms: number | undefined) => Math.round((ms ?? 0) / 1000);

/** A deployment not ready within the wait; `engineLimited` when the engine's customTimeouts ended the wait before readyTimeoutSeconds. */
async function notReadyFailure(step: Step, ended: NotReady<ServiceAgent>, wanted: string, engineLimited: boolean): Promise<DeploymentFailure> {
  const { verb, inputs, call } = step;
  const watched = watchedAgent(call.client, inputs.serviceName, wanted);
  const limit = engineLimited
    ? `The wait ended at the engine's customTimeouts.${verb} (${seconds(call.timeoutMs)} s), before readyTimeoutSeconds (${inputs.readyTimeoutSeconds} s).`
    : "";
  // Limited by the engine, the time is the operation's, its request included, as customTimeouts counts it.
  const waited = engineLimited && step.deadline !== undefined ? { ...ended, waitedMs: Date.now() - (step.deadline - (call.timeoutMs ?? 0)) } : ended;
  return {
    agent: ended.value,
    description: (await notReadyMessage(watched, waited, verb, limit)).trimEnd(),
    fix: engineLimited ? `Fix the image, or raise customTimeouts.${verb}.` : "Fix the image, or raise readyTimeoutSeconds.",
    unhealthy: false,
    cause: ended.lastError,
  };
}

/** A ready deployment whose health check found a line, or was cut short. */
async function unhealthyFailure(
  step: Step,
  agent: ServiceAgent,
  check: HealthCheck,
  result: Exclude<HealthResult, { healthy: true }>,
): Promise<DeploymentFailure> {
  const { verb, inputs, call } = step;
  const head = `agent "${inputs.serviceName}": deployment ${agent.activeDeploymentId} became ready, but`;
  if ("unfinished" in result) {
    return {
      agent,
      description: `${head} the engine's customTimeouts.${verb} (${seconds(call.timeoutMs)} s) ended its health check after ${seconds(result.watchedMs)} s of healthCheck.watchSeconds (${check.watchSeconds} s)`,
      fix: `Raise customTimeouts.${verb}, or lower healthCheck.watchSeconds.`,
      unhealthy: true,
    };
  }
  const watched = watchedAgent(call.client, inputs.serviceName);
  let newest: string[];
  try {
    newest = (await watched.newestLogs(agent, 10)).map((e) => `  ${e.timestamp} ${e.log}`);
  } catch (error) {
    newest = [`  (could not read the logs: ${error instanceof Error ? error.message : String(error)})`];
  }
  return {
    agent,
    description: [
      `${head} its health check found ${result.found.length === 1 ? "a line" : "lines"} matching healthCheck.failOnLogQuery "${check.failOnLogQuery}" within ${check.watchSeconds} s:`,
      ...result.found.map((e) => `  ${e.timestamp} ${e.log}`),
      "newest log lines:",
      ...newest,
    ].join("\n"),
    fix: "Fix what the line reports, in the image or its settings.",
    unhealthy: true,
  };
}
