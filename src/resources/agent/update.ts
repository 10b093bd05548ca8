/**
 * Update: POST /agents/{name} with the full body, then the wait for
 * readiness. A change only to settings the provider keeps in the state sends
 * nothing. A create or update that an earlier `up` sent and that did not
 * finish is resumed: not sent again, but read and waited for (a create whose
 * agent never appeared is posted again).
 */
import { NotFoundError } from "../../client/errors";
import { mayHaveActed } from "../../client/retry";
import { signalWithin } from "../../core/engine-limit";
import type { Stored, UpdateRequest } from "../../core/resource-entry";
import { postAgent } from "./create";
import { diffAgent } from "./diff";
import { AGENT_FIELDS } from "./fields";
import { finish } from "./finish";
import type { AgentInputs } from "./inputs-outputs";
import { clearKeptFields } from "./kept-fields";
import { updateBody } from "./manifest";
import { lastReadyBefore } from "./on-failure";
import { inputValues, withInputs } from "./outputs";
import type { AgentState } from "./outputs";
import { getAgent } from "./read";
import { checkReferencesBeforeSending } from "./references";
import { wantedDeploymentOf } from "./service-agent";
import type { ServiceAgent } from "./service-agent";
import { incompleteError, startStep } from "./step";
import type { Step } from "./step";

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
    if (pending === "create") return resume(startStep("create", inputs, secretInputs, request));
    // An unfinished rollback is waited for as the rollback it is: not health-checked, not rolled back again.
    const resumed = startStep("update", inputs, secretInputs, request, pending === "update" ? lastReady : undefined);
    if (pending === "rollback") resumed.rollback = true;
    return resume(resumed);
  }
  await checkReferencesBeforeSending(inputs.serviceName, inputValues(inputs), request.secretSets);
  const step = startStep("update", inputs, secretInputs, request, lastReady);
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
  return finish(step, { agent });
}

/** A step an earlier `up` sent: the agent is read and waited for; a create whose agent never appeared is posted again. */
async function resume(step: Step): Promise<Stored<AgentState>> {
  let agent: ServiceAgent;
  try {
    agent = await getAgent(step.call, step.inputs.serviceName);
  } catch (error) {
    if (!(error instanceof NotFoundError) || step.verb !== "create") throw error;
    agent = await postAgent(step.inputs, step.call);
  }
  return finish(step, { agent });
}
