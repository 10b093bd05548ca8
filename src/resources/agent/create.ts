/** Create: POST /agents, then the wait for readiness. */
import { ConflictError } from "../../client/errors";
import { mayHaveActed } from "../../client/retry";
import type { Call, CreateRequest, Stored } from "../../core/resource-entry";
import { signalWithin } from "../../core/engine-limit";
import { finish } from "./finish";
import { incompleteError, startStep } from "./step";
import type { AgentInputs } from "./inputs-outputs";
import { inputValues } from "./outputs";
import type { AgentState } from "./outputs";
import { checkReferencesBeforeSending } from "./references";
import { agentMatchesBody, createBody } from "./manifest";
import type { ServiceAgent } from "./service-agent";

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
  return finish(step, { agent: created });
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
 * is never taken over. The client's read-back after an unanswered POST is the
 * only way a create of this call is recognized at the service.
 */
export async function postAgent(inputs: AgentInputs, call: Call): Promise<ServiceAgent> {
  try {
    const body = createBody(inputs);
    return await call.client.createAgent(body, { signal: call.signal, onRetry: call.log.retry, matches: (existing) => agentMatchesBody(existing, body) });
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
