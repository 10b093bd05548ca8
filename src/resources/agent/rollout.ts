/**
 * Create and update, and what follows a failed deployment.
 *
 * Create: POST /agents, then the wait (rollout-wait.ts). Update: POST
 * /agents/{name} with the full body, then the wait; a change only to
 * settings the provider keeps in the state sends nothing; a create or update
 * an earlier `up` sent that did not finish is resumed: read and waited for,
 * not sent again (a create whose agent never appeared is posted again; one
 * that ends serving a spec changed outside Pulumi is followed by the
 * program's spec). A
 * field the program no longer declares is left out of the update, which
 * clears it at a service that replaces the spec; a service that merges
 * updates keeps it, so the field is sent once more as null.
 *
 * A deployment that failed (not ready within the wait, or its health check
 * found a line or was cut short) meets `onFailure`. "keep" leaves the agent
 * as it is and in the state, so the next `up` checks on it again.
 * "rollback": an update is updated back to the last ready spec, whose
 * deployment is waited for (no health check); the step then fails with
 * outputs that describe that deployment, so the next preview shows the
 * wanted change again. A create is deleted, and nothing stays in the state.
 * Whatever ends a rollback early leaves outputs describing a deployment that
 * exists: the failed one when the rollback's request did not reach the
 * service, else the rollback's own, with the pending mark.
 */
import type { UpdateAgentBody } from "../../client/bodies";
import { AgentCreateRolledBackError, AgentIncompleteError, AgentNotReadyError, AgentRolledBackError, AgentUnhealthyError, ConflictError, NotFoundError } from "../../client/errors";
import { mayHaveActed } from "../../client/retry";
import { signalWithin } from "../../core/engine-limit";
import { progressReporter, WaitFailure, waitForReady } from "../../core/readiness";
import type { WaitResult } from "../../core/readiness";
import type { Call, CreateRequest, Marks, Props, Stored, UpdateRequest } from "../../core/resource-entry";
import { withMarks } from "../../core/state-marks";
import { AGENT_FIELDS } from "./fields";
import type { AgentField } from "./fields";
import type { AgentInputs } from "./inputs-outputs";
import { checkReferencesBeforeSending, diffAgent } from "./preview-verbs";
import { deleteDraining, getAgent } from "./read";
import { finish, incompleteError, KEEP_NOTE, pendingProperties, startStep } from "./rollout-wait";
import type { DeploymentFailure, LastReady, Step } from "./rollout-wait";
import { asInputs, checkedDigest, createBody, IMAGE_DIGEST, inputValues, outputProps, pendingDeploymentOf, reportedValues, shownImage, toOutputs, updateBody, wantedDeploymentOf, watchedAgent, withInputs } from "./state";
import type { AgentState, ServiceAgent } from "./state";

/** The fields `answer` still reports although `body` left them out to clear them. */
function keptIn(answer: ServiceAgent, body: UpdateAgentBody): AgentField[] {
  const reported = reportedValues(answer.deployment?.manifest);
  const sent: Record<string, unknown> = { ...body };
  return AGENT_FIELDS.filter(
    (f) => f.undeclared === "clear" && f.sentTo === "service" && sent[f.name] === undefined && reported[f.name] !== undefined,
  );
}

/** The agent after clearing what the update left out, sending the nulls only to a service that kept something. */
export async function clearKeptFields(name: string, sent: { body: UpdateAgentBody; answer: ServiceAgent }, call: Call): Promise<ServiceAgent> {
  const kept = keptIn(sent.answer, sent.body);
  if (kept.length === 0) return sent.answer;
  const nulls = Object.fromEntries(kept.map((f) => [f.name, null]));
  let answer = sent.answer;
  try {
    answer = await call.client.updateAgent(name, { ...sent.body, ...nulls }, { signal: call.signal, onRetry: call.log.retry });
  } catch {
    // Reported below, with what the service still holds.
  }
  const still = keptIn(answer, sent.body);
  if (still.length > 0) {
    await call.log.warning(
      `agent-hosting: agent "${name}": the service kept ${still.map((f) => f.name).join(", ")} although the program no longer declares it; the next preview shows it again`,
    );
  }
  return answer;
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
  // The build that was ready: its digest, so a tag pushed since is not what the rollback sends.
  const digest = checkedDigest(lastReady);
  if (digest !== undefined) merged[IMAGE_DIGEST] = digest;
  return asInputs(merged);
}

/** The last ready spec the previous outputs describe; none when they hold an unfinished step. */
export function lastReadyOf(olds: AgentState, pending: boolean): LastReady | undefined {
  const deploymentId = olds.agent.activeDeploymentId;
  if (pending || deploymentId === "") return undefined;
  const digest = olds.imageDigest === undefined ? {} : { [IMAGE_DIGEST]: olds.imageDigest };
  return { inputs: asInputs({ ...olds.inputs, ...digest }), deploymentId };
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

export async function createVerb(request: CreateRequest<AgentInputs>): Promise<Stored<AgentState>> {
  const step = startStep("create", request.inputs, request.marks.secretInputs, request);
  // A set name unknown at preview is known now: checked before anything is sent (the check's lookups, cached).
  await checkReferencesBeforeSending(request.inputs.serviceName, inputValues(request.inputs), request.secretSets);
  let created: ServiceAgent;
  try {
    created = await postAgent(step.inputs, { ...request, signal: signalWithin(request, step.deadline, "create") });
  } catch (error) {
    if (!mayHaveActed(error)) throw error;
    throw incompleteError(step, undefined, error);
  }
  return finish(step, { agent: created }, deploymentFailed);
}

/** The resource's name in the program: the URN's last segment. */
const resourceName = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2) || "<name>";

/** How to read the agent that holds the name, in the program's language(s). */
function readItBack(call: Call, name: string): string {
  const resource = JSON.stringify(resourceName(call.urn));
  const id = JSON.stringify(name);
  if (call.host === "dynamic") return `Agent.get(${resource}, ${id})`;
  return (
    `Agent.get(${resource}, ${id}) in TypeScript, agent_hosting.Agent.get(${resource}, ${id}) in Python, ` +
    `agenthosting.GetAgent(ctx, ${resource}, pulumi.ID(${id}), nil) in Go`
  );
}

/**
 * POST /agents. A 409 means the name is taken, possibly by another stack: it
 * is never taken over. The client's read-back after an unanswered POST (an
 * agent whose manifest reports exactly the body: src/client/agent-body.ts)
 * is the only way a create of this call is recognized at the service.
 */
export async function postAgent(inputs: AgentInputs, call: Call): Promise<ServiceAgent> {
  try {
    return await call.client.createAgent(createBody(inputs), { signal: call.signal, onRetry: call.log.retry });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const name = inputs.serviceName;
    throw error.withMessage(
      `agent "${name}": the name is taken at the service (by another stack, or outside Pulumi), and this stack never takes it over; ` +
        `choose another serviceName, read the agent with ${readItBack(call, name)}, ` +
        `or adopt it into this stack with the native provider's import (pulumi import agent-hosting:index:Agent ${resourceName(call.urn)} ${name})`,
    );
  }
}

/** The error for an agent deleted outside Pulumi since the last refresh. */
function goneError(name: string, error: NotFoundError): NotFoundError {
  return error.withMessage(
    `agent "${name}" no longer exists at the service (deleted outside Pulumi?); run \`pulumi refresh\` to drop it from the stack's state, then \`pulumi up\` creates it again`,
  );
}

export async function updateVerb(request: UpdateRequest<AgentInputs, AgentState>): Promise<Stored<AgentState>> {
  const { id, olds, oldMarks, inputs, marks } = request;
  const diff = diffAgent(olds, inputValues(inputs), { olds: oldMarks, news: marks });
  const { secretInputs } = marks;
  const pending = oldMarks.pending;
  if (diff.localOnly && pending === undefined) {
    // Only settings the provider keeps in the state changed: nothing is sent.
    return { id, outputs: withInputs(olds, inputs), marks: { secretInputs } };
  }
  const lastReady = lastReadyBefore(olds, oldMarks);
  if (diff.localOnly && pending !== undefined) {
    const wanted = recordedWanted(olds, lastReady);
    if (pending === "rollback") {
      // An unfinished rollback is waited for as the rollback it is: not health-checked, not rolled back again.
      const back = startStep("update", inputs, secretInputs, request);
      back.rollback = true;
      return resume(back, wanted);
    }
    const step = pending === "create" ? startStep("create", inputs, secretInputs, request) : startStep("update", inputs, secretInputs, request, lastReady);
    return rejoinProgram(request, await resume(step, wanted));
  }
  return sendUpdate(request, olds, diff, lastReady);
}

/**
 * A resumed create or update that ended on its deployment serving, but with
 * a spec other than the program's: changed outside Pulumi while the step was
 * unfinished (a scaling change applies to the serving deployment in place).
 * The program's spec is sent, so that the `up` ends with the service running
 * the program and the next preview shows no change.
 */
async function rejoinProgram(request: UpdateRequest<AgentInputs, AgentState>, resumed: Stored<AgentState>): Promise<Stored<AgentState>> {
  const { agent } = resumed.outputs;
  if (agent.activeDeploymentId === "" || agent.activeDeploymentId !== wantedDeploymentOf(agent)) return resumed;
  const live = diffAgent(resumed.outputs, inputValues(request.inputs), { olds: resumed.marks, news: request.marks });
  if (live.localOnly) return resumed;
  await request.log.info(
    `agent "${request.inputs.serviceName}": the step an earlier \`pulumi up\` left unfinished is ready (deployment ${agent.activeDeploymentId}), ` +
      `but its ${live.changed.join(", ")} at the service differ from the program (changed outside Pulumi since); sending the program's spec`,
  );
  return sendUpdate(request, resumed.outputs, live, lastReadyOf(resumed.outputs, false));
}

/** POST /agents/{name} with the program's spec, then the wait; `olds` is the agent as last recorded, `lastReady` what onFailure "rollback" returns to. */
async function sendUpdate(
  request: UpdateRequest<AgentInputs, AgentState>,
  olds: AgentState,
  diff: { changed: string[] },
  lastReady: LastReady | undefined,
): Promise<Stored<AgentState>> {
  const { id, inputs, marks } = request;
  await checkReferencesBeforeSending(inputs.serviceName, inputValues(inputs), request.secretSets);
  const step = startStep("update", inputs, marks.secretInputs, request, lastReady);
  const options = { signal: signalWithin(request, step.deadline, "update"), onRetry: request.log.retry };
  let live: ServiceAgent | undefined;
  let answer: ServiceAgent;
  try {
    // A field left out that the agent keeps is sent with its live value, read first.
    const declared = inputValues(inputs);
    const keeps = AGENT_FIELDS.some((f) => f.undeclared === "keep" && declared[f.name] === undefined);
    live = keeps ? await getAgent(request, id) : undefined;
    answer = await request.client.updateAgent(id, updateBody(inputs, live), options);
  } catch (error) {
    if (error instanceof NotFoundError) throw goneError(id, error);
    if (!mayHaveActed(error)) throw error;
    throw incompleteError(step, live, error);
  }
  const agent = await clearKeptFields(id, { body: updateBody(inputs, live), answer }, request);
  if (diff.changed.includes("redeployTrigger") && wantedDeploymentOf(agent) === olds.agent.activeDeploymentId) {
    // A service may treat an unchanged spec as no change and keep the deployment; say so when it did.
    await request.log.warning(
      `agent-hosting: agent "${inputs.serviceName}": redeployTrigger changed, but the service kept deployment ${wantedDeploymentOf(agent)}; it may treat an unchanged spec as no change (pin the image by digest instead)`,
    );
  }
  return finish(step, { agent }, deploymentFailed);
}

/**
 * The deployment an unfinished step's answer named, as the state records it;
 * none when the step recorded no answer (or only the agent as it was before
 * the request, whose deployment is the last ready one).
 */
function recordedWanted(olds: AgentState, lastReady: LastReady | undefined): string | undefined {
  const wanted = wantedDeploymentOf(olds.agent);
  return wanted === "" || wanted === lastReady?.deploymentId ? undefined : wanted;
}

/**
 * A step an earlier `up` sent: the agent is read and waited for; a create
 * whose agent never appeared is posted again. `wanted`, when the state
 * records it, is the deployment waited for: an agent that has moved on from
 * it (an update from outside superseded it) fails the wait again, rather
 * than being taken for the program's spec.
 */
async function resume(step: Step, wanted: string | undefined): Promise<Stored<AgentState>> {
  let agent: ServiceAgent;
  try {
    agent = await getAgent(step.call, step.inputs.serviceName);
  } catch (error) {
    if (!(error instanceof NotFoundError) || step.verb !== "create") throw error;
    return finish(step, { agent: await postAgent(step.inputs, step.call) }, deploymentFailed);
  }
  return finish(step, wanted === undefined ? { agent } : { agent, wanted }, deploymentFailed);
}
