/**
 * Update: POST /agents/{name} with the full body, then the wait for
 * readiness. A change only to settings the provider keeps in the state sends
 * nothing; a pending create or update of an earlier `up` is resumed.
 */
import type { AgentHostingClient } from "../client/client";
import { mayHaveActed } from "../client/retry";
import { AGENT_FIELDS, updateBody, type AgentField, type ServiceAgent } from "../model";
import type { Props, VerbContext } from "./context";
import type { DiffOutcome } from "./diff";
import { incompleteError, type Step } from "./failures";
import { finish } from "./finish";
import { clearKeptFields } from "./kept-fields";
import { agentFromOutputs, asInputs, marksOf, toOutputs } from "./outputs";
import { resume } from "./resume";
import { patientGetAgent } from "./wait";

type UpdateBody = Parameters<AgentHostingClient["updateAgent"]>[1];

/** An update as the engine asks for it, with the changes its diff found. */
export interface UpdateRequest {
  id: string;
  olds: Props;
  news: Props;
  changes: DiffOutcome;
}

/** Whether the update talks to the service: anything but local changes, or local ones that resume a pending step. */
export function updateTalksToService({ olds, changes }: UpdateRequest): boolean {
  return !changes.localOnly || marksOf(olds).pending !== undefined;
}

export async function updateVerb({ id, olds, news, changes }: UpdateRequest, context: VerbContext): Promise<{ outs: Props }> {
  const inputs = asInputs(news);
  const marks = marksOf(news);
  const pending = marksOf(olds).pending;
  if (changes.localOnly && pending !== undefined) return { outs: await resume({ verb: pending, inputs, marks, props: news }, context) };
  const step: Step = { verb: "update", inputs, marks, props: news };
  // A field left out that the agent keeps is sent with its live value, read first.
  const declared = inputs as unknown as Props;
  const keeps = (AGENT_FIELDS as readonly AgentField[]).some((f) => f.undeclared === "keep" && declared[f.name] === undefined);
  const live = keeps ? await patientGetAgent(context.client, id, { signal: context.signal }) : undefined;
  const body = updateBody(inputs as unknown as Props, live);
  let answer: ServiceAgent;
  try {
    answer = await context.client.updateAgent(id, body as unknown as UpdateBody, { signal: context.signal });
  } catch (error) {
    if (!mayHaveActed(error)) throw error;
    throw incompleteError(step, live, error);
  }
  const agent = await clearKeptFields(id, { body, answer }, context);
  if (changes.changed.includes("redeployTrigger") && agent.activeDeploymentId === olds["activeDeploymentId"]) {
    // A service may treat an unchanged spec as no change and keep the deployment; say so when it did.
    await context.log.warning(
      `agent-hosting: agent "${inputs.serviceName}": redeployTrigger changed, but the service kept deployment ${agent.activeDeploymentId}; it may treat an unchanged spec as no change (pin the image by digest instead)`,
    );
  }
  return { outs: await finish(step, context, { agent, deploymentId: agent.activeDeploymentId }) };
}

/** The outputs of an update that changed only what the provider keeps in the state: nothing is sent. */
export function localUpdate(olds: Props, news: Props): { outs: Props } {
  return { outs: toOutputs(asInputs(news), agentFromOutputs(olds), marksOf(news)) };
}
