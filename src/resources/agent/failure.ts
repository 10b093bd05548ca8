/**
 * A deployment that failed: not ready within the wait, or its health check
 * found a line (or was cut short by the engine's limit). `onFailure` decides
 * what follows: "keep" leaves the agent as it is and in the state, so the
 * next `up` checks on it again; "rollback" returns an update to the last
 * ready spec and deletes the agent of a failed create (rollback.ts).
 */
import { AgentNotReadyError, AgentUnhealthyError } from "../../client/errors";
import { notReadyMessage, type NotReady } from "../../core/readiness";
import type { HealthCheck, HealthResult } from "./health-check";
import { KEEP_NOTE, pendingProperties, type Step } from "./incomplete";
import { rollbackCreate, rollbackUpdate } from "./rollback";
import { pendingDeploymentOf, type ServiceAgent } from "./service-agent";
import { watchedAgent } from "./watched-agent";
import { shownImage } from "./shown-image";

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

const seconds = (ms: number | undefined) => Math.round((ms ?? 0) / 1000);

/** A deployment not ready within the wait; `engineLimited` when the engine's customTimeouts ended the wait before readyTimeoutSeconds. */
export async function notReadyFailure(step: Step, ended: NotReady<ServiceAgent>, wanted: string, engineLimited: boolean): Promise<DeploymentFailure> {
  const { verb, inputs, call } = step;
  const watched = watchedAgent(await call.service.client(), inputs.serviceName, wanted);
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
export async function unhealthyFailure(
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
  const watched = watchedAgent(await call.service.client(), inputs.serviceName);
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

/** Ends the step on a failed deployment, as onFailure says: always with an error. */
export async function deploymentFailed(step: Step, failure: DeploymentFailure): Promise<never> {
  if (step.rollback) throw keepError(step, failure, 'This deployment is the rollback to the last ready spec (onFailure "rollback"), which is not rolled back again.');
  if (step.inputs.onFailure === "rollback") {
    if (step.verb === "create") return rollbackCreate(step, failure);
    if (step.lastReady) return rollbackUpdate(step, step.lastReady, failure);
    throw keepError(
      step,
      failure,
      'onFailure "rollback" has no last ready spec to return to: the stack\'s state holds an unfinished update of an earlier `pulumi up`, so the deployment is kept.',
    );
  }
  throw keepError(step, failure, keptNote(step, failure));
}

/**
 * onFailure "keep": what stays at the service, and, for an update with a
 * last ready spec, the two ways back to it: onFailure "rollback" (the next
 * `up` finds the kept deployment failed and rolls back) or that spec declared again.
 */
export function keptNote(step: Step, failure: DeploymentFailure): string {
  const kept = `onFailure "keep": ${keptDeployment(failure.agent)}.`;
  const last = step.lastReady;
  if (step.verb !== "update" || last === undefined) return kept;
  return (
    `${kept} To go back to the last ready spec (image ${shownImage(last.inputs.image, step.secretInputs)}, deployment ${last.deploymentId}), ` +
    'set onFailure: "rollback" and run `pulumi up`, or declare that spec again.'
  );
}

/** What stays at the service: the failed deployment, and on a service that rolls updates, the one that serves instead. */
function keptDeployment(agent: ServiceAgent | undefined): string {
  if (agent === undefined) return "the new deployment stays in place at the service";
  const pending = pendingDeploymentOf(agent);
  if (pending === undefined) return `deployment ${agent.activeDeploymentId} stays in place at the service`;
  return (
    `deployment ${pending} stays wanted at the service, which keeps serving deployment ${agent.activeDeploymentId} while it does not validate; ` +
    "the stack's state records what serves and the pending deployment, so the next `pulumi preview` shows the update and `pulumi up` waits for it again"
  );
}

/** onFailure "keep": the agent stays as it is, in the state with the pending mark. */
export function keepError(step: Step, failure: DeploymentFailure, note?: string): AgentNotReadyError | AgentUnhealthyError {
  const message = [failure.description, ...(note ? [note] : []), `${KEEP_NOTE} ${failure.fix}`].join("\n");
  const KeptError = failure.unhealthy ? AgentUnhealthyError : AgentNotReadyError;
  return new KeptError(message, step.inputs.serviceName, pendingProperties(step, failure.agent), { cause: failure.cause });
}
