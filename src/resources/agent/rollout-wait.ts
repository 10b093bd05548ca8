/**
 * A create or update in progress (a step) after its request: the wait for
 * readiness when the inputs ask for it, then the health check of a new
 * deployment when they declare one (its logs read every second for
 * `watchSeconds`; a matching line, or an engine limit that ends the watch
 * first, is a failure; a transient read failure is read again). A
 * deployment that fails either is described here and handed to the
 * caller's onFailure (rollout.ts). Any other failure from here on ends the
 * step with an error that carries the agent's id and its last known outputs
 * with the pending mark, which each host turns into the engine's
 * "initialization failed" answer, so the agent stays in the state and the
 * next `up` checks on it instead of sending the request again.
 */
import type { AgentHostingClient } from "../../client/client";
import { HEALTH_READ_INTERVAL_MS } from "../../client/delays";
import { AgentIncompleteError } from "../../client/errors";
import { isTransientPollFailure } from "../../client/retry";
import { abortableSleep } from "../../core/abortable-sleep";
import { notReadyMessage, progressReporter, WaitFailure, waitForReady } from "../../core/readiness";
import type { NotReady, WaitResult } from "../../core/readiness";
import type { Call, Marks, Props, Stored } from "../../core/resource-entry";
import { withMarks } from "../../core/state-marks";
import { AGENT_FIELDS } from "./fields";
import type { AgentInputs } from "./inputs-outputs";
import { failedPollNotes, inputValues, outputProps, outputsWithoutAnswer, toOutputs, wantedDeploymentOf, watchedAgent } from "./state";
import type { AgentState, ServiceAgent } from "./state";

export interface HealthCheck {
  failOnLogQuery: string;
  watchSeconds: number;
}

export interface HealthWatch {
  client: Pick<AgentHostingClient, "getAgentLogs">;
  agentName: string;
  deploymentId: string;
  check: HealthCheck;
  signal: AbortSignal;
  /** How long the watch may last at most (what is left of the operation's limit); default watchSeconds. */
  limitMs?: number;
  /** Hears the start of the watch (a line on the resource's row). */
  onStart?: (line: string) => Promise<void> | void;
}

export type HealthResult =
  | { healthy: true }
  | { healthy: false; found: { timestamp: string; log: string }[]; watchedMs: number }
  | { healthy: false; found: []; watchedMs: number; unfinished: true };

/** Matching lines quoted in the error. */
const QUOTED_MATCHES = 3;

/** Watches the deployment's logs for the query; the oldest matching lines when found. */
export async function watchDeploymentHealth(watch: HealthWatch): Promise<HealthResult> {
  const { client, agentName, deploymentId, check, signal } = watch;
  const watchMs = check.watchSeconds * 1000;
  const limitMs = Math.min(watchMs, watch.limitMs ?? watchMs);
  await watch.onStart?.(
    `agent "${agentName}": deployment ${deploymentId} is ready; watching its logs for "${check.failOnLogQuery}" for ${check.watchSeconds} s (healthCheck)`,
  );
  const started = Date.now();
  const read = () =>
    client.getAgentLogs({ agentName, deploymentId, query: check.failOnLogQuery, order: "asc", limit: QUOTED_MATCHES }, { signal });
  for (;;) {
    const elapsed = Date.now() - started;
    const last = elapsed >= limitMs;
    try {
      const result = await read();
      if (result.total.value > 0) return { healthy: false, found: result.logs.map(({ timestamp, log }) => ({ timestamp, log })), watchedMs: Date.now() - started };
    } catch (error) {
      signal.throwIfAborted();
      if (last || !isTransientPollFailure(error)) throw error;
    }
    if (last) return limitMs < watchMs ? { healthy: false, found: [], watchedMs: elapsed, unfinished: true } : { healthy: true };
    await abortableSleep(Math.min(HEALTH_READ_INTERVAL_MS, limitMs - elapsed), signal);
  }
}

export type Verb = "create" | "update";

/** The spec an update's onFailure "rollback" returns to: the previous outputs' service fields, and their deployment. */
export interface LastReady {
  inputs: AgentInputs;
  deploymentId: string;
}

/** A create or update in progress: what its errors and kept outputs are made of. */
export interface Step {
  verb: Verb;
  inputs: AgentInputs;
  secretInputs: readonly string[];
  call: Call;
  /** Epoch milliseconds at which the engine's limit for the operation ends (customTimeouts; the native plugin only). */
  deadline?: number;
  /** For an update: the last ready spec (none when the previous state holds an unfinished step). */
  lastReady?: LastReady;
  /** An update back to the last ready spec (onFailure "rollback"): kept unfinished, it is marked pending "rollback". */
  rollback?: true;
}

/** A step of `verb` starting now: its deadline is the engine's limit from now. */
export function startStep(verb: Verb, inputs: AgentInputs, secretInputs: readonly string[], call: Call, lastReady?: LastReady): Step {
  const step: Step = { verb, inputs, secretInputs, call };
  if (call.timeoutMs !== undefined) step.deadline = Date.now() + call.timeoutMs;
  if (lastReady !== undefined) step.lastReady = lastReady;
  return step;
}

/** Milliseconds left of the engine's limit for the step (none without one). */
export function remainingMs(step: Step): number | undefined {
  return step.deadline === undefined ? undefined : Math.max(0, step.deadline - Date.now());
}

/**
 * Outputs kept for an operation that did not finish: the last answer, with
 * the declared inputs (so the next `up` sees nothing new to send and waits
 * instead of sending it again) and the pending mark.
 */
export function pendingProperties(step: Step, agent: ServiceAgent | undefined): Props {
  const { inputs, secretInputs, verb } = step;
  const outputs = agent ? outputProps(toOutputs(inputs, agent), secretInputs) : outputsWithoutAnswer(inputs);
  const declared = inputValues(inputs);
  for (const field of AGENT_FIELDS) {
    const value = declared[field.name];
    if (!field.answer && value !== undefined) outputs[field.name] = value;
  }
  const marks: Marks = { secretInputs, pending: step.rollback ? "rollback" : verb };
  // An unfinished update keeps the spec it replaced, which onFailure "rollback" returns to when the next `up` finds it failed.
  if (verb === "update" && !step.rollback && step.lastReady) {
    marks.lastReady = { deploymentId: step.lastReady.deploymentId, spec: inputValues(step.lastReady.inputs) };
  }
  return withMarks(outputs, marks);
}

export const KEEP_NOTE = "The agent is kept in the stack's state; the next `pulumi up` checks on it and waits again instead of sending the request twice.";

/** A failure after the request may have been acted on. */
export function incompleteError(step: Step, agent: ServiceAgent | undefined, cause: unknown): AgentIncompleteError {
  const why = cause instanceof Error ? cause.message : String(cause);
  const name = step.inputs.serviceName;
  const message = `agent "${name}": the ${step.verb} was sent, but then failed: ${why}\n${KEEP_NOTE}`;
  return new AgentIncompleteError(message, name, pendingProperties(step, agent), { cause });
}

export interface DeploymentFailure {
  /** The agent as last seen. */
  agent: ServiceAgent | undefined;
  /** What happened: the agent, the deployment, why it failed, its log lines. */
  description: string;
  /** What to change so that the next deployment does not fail the same way. */
  fix: string;
  unhealthy: boolean;
  cause?: unknown;
}

/** Ends a step whose deployment failed, as its `onFailure` says: always with an error. */
export type OnFailure = (step: Step, failure: DeploymentFailure) => Promise<never>;

export interface Answered {
  /** The agent as the service answered the create or update, or as a resumed step read it; it names the wanted deployment. */
  agent: ServiceAgent;
  /** For a resumed step: the deployment its earlier answer named, which the state records; the wait is for it, not for what the agent wants now. */
  wanted?: string;
}

/** The wait's limit: readyTimeoutSeconds, or what is left of the engine's limit for the operation when that ends first. */
export function waitLimitMs(step: Step): number {
  const own = step.inputs.readyTimeoutSeconds * 1000;
  const left = remainingMs(step);
  return left === undefined ? own : Math.min(own, left);
}

/** What a finished step stores, after waiting for readiness when `inputs.waitForReady` asks for it. */
export async function finish(step: Step, answered: Answered, onFailure: OnFailure): Promise<Stored<AgentState>> {
  const { inputs, secretInputs } = step;
  const stored = (agent: ServiceAgent): Stored<AgentState> => ({ id: agent.name, outputs: toOutputs(inputs, agent), marks: { secretInputs } });
  if (!inputs.waitForReady) return stored(answered.agent);
  const limitMs = waitLimitMs(step);
  const wanted = answered.wanted ?? wantedDeploymentOf(answered.agent);
  const result = await waitFor(step, answered.agent, wanted, limitMs);
  if (!result.ready) return onFailure(step, await notReadyFailure(step, result, wanted, limitMs < inputs.readyTimeoutSeconds * 1000));
  const unhealthy = await checkHealth(step, result.value);
  if (unhealthy) return onFailure(step, unhealthy);
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
