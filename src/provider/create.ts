/** Create: POST /agents, then the wait for readiness. */
import type { AgentHostingClient } from "../client/client";
import { ConflictError } from "../client/errors";
import { mayHaveActed } from "../client/retry";
import { createBody, type AgentInputs, type ServiceAgent } from "../model";
import type { Props, VerbContext } from "./context";
import { incompleteError, type Step } from "./failures";
import { finish } from "./finish";
import { asInputs, marksOf } from "./outputs";

export async function createVerb(props: Props, context: VerbContext): Promise<{ id: string; outs: Props }> {
  const step: Step = { verb: "create", inputs: asInputs(props), marks: marksOf(props), props };
  let created: ServiceAgent;
  try {
    created = await postAgent(step.inputs, context);
  } catch (error) {
    if (!mayHaveActed(error)) throw error;
    throw incompleteError(step, undefined, error);
  }
  return { id: created.name, outs: await finish(step, context, { agent: created }) };
}

type CreateBody = Parameters<AgentHostingClient["createAgent"]>[0];

/**
 * POST /agents. A 409 means the name is taken, possibly by another stack: it
 * is never taken over. The client's read-back after an unanswered POST is the
 * only way a create of this call is recognized at the service.
 */
export async function postAgent(inputs: AgentInputs, context: VerbContext): Promise<ServiceAgent> {
  const body = createBody(inputs as unknown as Props) as unknown as CreateBody;
  try {
    return await context.client.createAgent(body, { signal: context.signal });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const name = inputs.serviceName;
    throw error.withMessage(
      `agent "${name}": the name is taken at the service (by another stack, or outside Pulumi), and this stack never takes it over; ` +
        `choose another serviceName, read the agent with Agent.get("${name}"), ` +
        `or adopt it into this stack with the native provider's import (pulumi import agent-hosting:index:Agent <resource name> ${name})`,
    );
  }
}
