/**
 * onFailure "rollback". An update whose deployment failed is updated back to
 * the last ready spec (the previous outputs' image, scaling, secret sets,
 * noise flag, node type), whose deployment is waited for (no health check);
 * the step then fails with outputs that describe that deployment, so the
 * next preview shows the wanted change again. A create whose deployment
 * failed is deleted, and nothing stays in the state.
 *
 * Whatever ends a rollback early (a refused request, a Cancel or SIGINT, a
 * deployment that is not ready either) leaves outputs describing a
 * deployment that exists: the failed one when the rollback's request did not
 * reach the service, else the rollback's own, with the pending mark.
 */
import { AgentCreateRolledBackError, AgentIncompleteError, AgentRolledBackError, NotFoundError } from "../../client/errors";
import { mayHaveActed } from "../../client/retry";
import type { FieldSpec } from "../../core/field-table";
import { progressReporter, WaitFailure, waitForReady, type WaitResult } from "../../core/readiness";
import type { Marks, Props } from "../../core/resource-entry";
import { withMarks } from "../../core/state-marks";
import type { DeploymentFailure } from "./failure";
import { AGENT_FIELDS } from "./fields";
import { KEEP_NOTE, pendingProperties, type LastReady, type Step } from "./incomplete";
import type { AgentInputs } from "./inputs-outputs";
import { clearKeptFields } from "./kept-fields";
import { asInputs, inputValues, toOutputs } from "./outputs";
import { updateBody } from "./request-body";
import { wantedDeploymentOf, type ServiceAgent } from "./service-agent";
import { watchedAgent } from "./watched-agent";
import { shownImage } from "./shown-image";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The inputs after a rollback: the last ready spec, with the provider settings the program declares now. */
export function rolledBackInputs(wanted: AgentInputs, lastReady: AgentInputs): AgentInputs {
  const table: readonly FieldSpec[] = AGENT_FIELDS;
  const now = inputValues(wanted);
  const then = inputValues(lastReady);
  const merged: Props = {};
  for (const field of table) {
    const value = field.change === "local" ? now[field.name] : then[field.name];
    if (value !== undefined) merged[field.name] = value;
  }
  return asInputs(merged);
}

/** The last ready spec the previous outputs describe; none when they hold an unfinished step. */
export function lastReadyOf(olds: Props, pending: boolean): LastReady | undefined {
  const deploymentId = olds["activeDeploymentId"];
  if (pending || typeof deploymentId !== "string" || deploymentId === "") return undefined;
  return { inputs: asInputs(olds), deploymentId };
}

/**
 * What an update returns to on onFailure "rollback": the previous outputs'
 * spec; for an unfinished update, the spec it replaced, which its state
 * kept; for an unfinished rollback, the spec it returns to, which its
 * outputs describe; none for an unfinished create.
 */
export function lastReadyBefore(olds: Props, marks: Marks): LastReady | undefined {
  if (marks.pending === "create") return undefined;
  if (marks.pending === "update") {
    const kept = marks.lastReady;
    return kept ? { inputs: asInputs({ ...kept.spec, serviceName: olds["serviceName"] }), deploymentId: kept.deploymentId } : undefined;
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
  const client = await call.service.client();
  const body = updateBody(inputs, undefined);
  let agent: ServiceAgent;
  try {
    agent = await clearKeptFields(name, { body, answer: await client.updateAgent(name, body, { signal: call.signal, onRetry: call.log.retry }) }, call);
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
  throw new AgentRolledBackError(message, name, withMarks(toOutputs(inputs, result.value, secretInputs), { secretInputs }), { cause: failure.cause });
}

/** The wait for the rollback's deployment, within readyTimeoutSeconds; an abort or a lasting poll failure ends it with `failed`'s error. */
async function waitForRollback(
  back: Step,
  agent: ServiceAgent,
  wanted: string,
  failed: (error: unknown, seen: ServiceAgent | undefined) => AgentIncompleteError,
): Promise<WaitResult<ServiceAgent>> {
  const { call, inputs } = back;
  const watched = watchedAgent(await call.service.client(), inputs.serviceName, wanted);
  try {
    return await waitForReady({
      watched,
      initial: agent,
      timeoutMs: inputs.readyTimeoutSeconds * 1000,
      gate: call.service.gate,
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
    await (await call.service.client()).deleteAgent(name, { signal: call.signal, onRetry: call.log.retry });
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
