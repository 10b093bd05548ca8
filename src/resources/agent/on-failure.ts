/**
 * A deployment that failed (not ready within the wait, or its health check
 * found a line or was cut short by the engine's limit), and what
 * `onFailure` does about it.
 *
 * "keep" leaves the agent as it is and in the state, so the next `up`
 * checks on it again.
 *
 * "rollback": an update whose deployment failed is updated back to the last
 * ready spec (the previous outputs' image, scaling, secret sets, noise flag,
 * node type), whose deployment is waited for (no health check); the step
 * then fails with outputs that describe that deployment, so the next
 * preview shows the wanted change again. A create whose deployment failed
 * is deleted, and nothing stays in the state. Whatever ends a rollback early
 * (a refused request, a Cancel or SIGINT, a deployment that is not ready
 * either) leaves outputs describing a deployment that exists: the failed one
 * when the rollback's request did not reach the service, else the
 * rollback's own, with the pending mark.
 */
import {
  AgentCreateRolledBackError,
  AgentIncompleteError,
  AgentNotReadyError,
  AgentRolledBackError,
  AgentUnhealthyError,
  NotFoundError,
} from "../../client/errors";
import { mayHaveActed } from "../../client/retry";
import { progressReporter, WaitFailure, waitForReady } from "../../core/readiness";
import type { WaitResult } from "../../core/readiness";
import type { Marks, Props } from "../../core/resource-entry";
import { withMarks } from "../../core/state-marks";
import { AGENT_FIELDS } from "./fields";
import type { AgentInputs } from "./inputs-outputs";
import { clearKeptFields } from "./kept-fields";
import { updateBody } from "./manifest";
import { asInputs, inputValues, outputProps, shownImage, toOutputs } from "./outputs";
import type { AgentState } from "./outputs";
import { pendingDeploymentOf, wantedDeploymentOf } from "./service-agent";
import type { ServiceAgent } from "./service-agent";
import { KEEP_NOTE, pendingProperties } from "./step";
import type { LastReady, Step } from "./step";
import { watchedAgent } from "./watched-agent";
import { deleteDraining } from "./read";

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

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The inputs after a rollback: the last ready spec, with the provider settings the program declares now. */
export function rolledBackInputs(wanted: AgentInputs, lastReady: AgentInputs): AgentInputs {
  const now = inputValues(wanted);
  const then = inputValues(lastReady);
  const merged: Props = {};
  for (const field of AGENT_FIELDS) {
    const value = field.change === "local" ? now[field.name] : then[field.name];
    if (value !== undefined) merged[field.name] = value;
  }
  return asInputs(merged);
}

/** The last ready spec the previous outputs describe; none when they hold an unfinished step. */
export function lastReadyOf(olds: AgentState, pending: boolean): LastReady | undefined {
  const deploymentId = olds.agent.activeDeploymentId;
  if (pending || deploymentId === "") return undefined;
  return { inputs: asInputs(olds.inputs), deploymentId };
}

/**
 * What an update returns to on onFailure "rollback": the previous outputs'
 * spec; for an unfinished update, the spec it replaced, which its state
 * kept; for an unfinished rollback, the spec it returns to, which its
 * outputs describe; none for an unfinished create.
 */
export function lastReadyBefore(olds: AgentState, marks: Marks): LastReady | undefined {
  if (marks.pending === "create") return undefined;
  if (marks.pending === "update") {
    const kept = marks.lastReady;
    return kept ? { inputs: asInputs({ ...kept.spec, serviceName: olds.inputs.serviceName }), deploymentId: kept.deploymentId } : undefined;
  }
  return lastReadyOf(olds, false);
}

export async function rollbackUpdate(step: Step, lastReady: LastReady, failure: DeploymentFailure): Promise<never> {
  const { call, secretInputs } = step;
  const name = step.inputs.serviceName;
  const inputs = rolledBackInputs(step.inputs, lastReady.inputs);
  const back: Step = { verb: "update", inputs, secretInputs, call, rollback: true };
  const said = (what: string) => `${failure.description}\nonFailure "rollback": ${what}`;
  const image = shownImage(inputs.image, secretInputs);
  await call.log.info(`agent "${name}": onFailure "rollback": updating the agent back to the last ready spec (image ${image})`);
  const body = updateBody(inputs, undefined);
  let agent: ServiceAgent;
  try {
    agent = await clearKeptFields(name, { body, answer: await call.client.updateAgent(name, body, { signal: call.signal, onRetry: call.log.retry }) }, call);
  } catch (error) {
    const message = said(`the update back to the last ready spec failed: ${messageOf(error)}\n${KEEP_NOTE}`);
    const kept = mayHaveActed(error) ? pendingProperties(back, failure.agent) : pendingProperties(step, failure.agent);
    throw new AgentIncompleteError(message, name, kept, { cause: error });
  }
  // On a service that rolls updates, the spec goes out as a new desired deployment: the rollback ends when that one serves and nothing else is wanted.
  const deploymentId = wantedDeploymentOf(agent);
  const result = await waitForRollback(back, agent, deploymentId, (error, seen) => {
    const message = said(`the update back to the last ready spec (deployment ${deploymentId}) was sent, but then failed: ${messageOf(error)}\n${KEEP_NOTE}`);
    return new AgentIncompleteError(message, name, pendingProperties(back, seen ?? agent), { cause: error });
  });
  if (!result.ready) {
    const message = said(
      `rolled back to deployment ${deploymentId} of the last ready spec (image ${image}), which did not become ready within ${inputs.readyTimeoutSeconds} s either.\n${KEEP_NOTE}`,
    );
    throw new AgentIncompleteError(message, name, pendingProperties(back, result.value ?? agent));
  }
  const message = said(
    `rolled back to deployment ${deploymentId} of the last ready spec (image ${image}), which is ready. ` +
      `The stack's state describes it, so the next \`pulumi preview\` shows the change again and \`pulumi up\` retries it. ${failure.fix}`,
  );
  throw new AgentRolledBackError(message, name, withMarks(outputProps(toOutputs(inputs, result.value), secretInputs), { secretInputs }), { cause: failure.cause });
}

/** The wait for the rollback's deployment, within readyTimeoutSeconds; an abort or a lasting poll failure ends it with `failed`'s error. */
async function waitForRollback(
  back: Step,
  agent: ServiceAgent,
  wanted: string,
  failed: (error: unknown, seen: ServiceAgent | undefined) => AgentIncompleteError,
): Promise<WaitResult<ServiceAgent>> {
  const { call, inputs } = back;
  const watched = watchedAgent(call.client, inputs.serviceName, wanted);
  try {
    return await waitForReady({
      watched,
      initial: agent,
      timeoutMs: inputs.readyTimeoutSeconds * 1000,
      gate: call.gate,
      signal: call.signal,
      progress: progressReporter(watched, (line) => call.log.info(line)),
    });
  } catch (error) {
    const failure = error instanceof WaitFailure ? (error as WaitFailure<ServiceAgent>) : new WaitFailure<ServiceAgent>(error, agent);
    throw failed(failure.error, failure.value);
  }
}

export async function rollbackCreate(step: Step, failure: DeploymentFailure): Promise<never> {
  const { call } = step;
  const name = step.inputs.serviceName;
  await call.log.info(`agent "${name}": onFailure "rollback": deleting the agent whose create failed`);
  try {
    await deleteDraining(call, name, step.inputs.drainSeconds, call.signal);
  } catch (error) {
    if (!(error instanceof NotFoundError)) {
      const message = `${failure.description}\nonFailure "rollback": deleting the agent failed: ${messageOf(error)}\n${KEEP_NOTE}`;
      throw new AgentIncompleteError(message, name, pendingProperties(step, failure.agent), { cause: error });
    }
  }
  throw new AgentCreateRolledBackError(
    `${failure.description}\nonFailure "rollback": deleted agent "${name}"; nothing stays at the service or in the stack's state. ${failure.fix} Then \`pulumi up\` creates it again.`,
    name,
  );
}
