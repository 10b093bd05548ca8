/**
 * Read (refresh, and `Agent.get` or an import when no state is passed): the
 * agent as the service holds it, the inputs rebuilt from it. An agent
 * deleted outside Pulumi leaves the state; one asked for by name that does
 * not exist is an AgentNotFoundError.
 */
import { AgentNotFoundError, NotFoundError } from "../../client/errors";
import type { Call, ReadRequest, ReadResult } from "../../core/resource-entry";
import { inputsFromAgent, toOutputs } from "./outputs";
import type { ServiceAgent } from "./service-agent";

/** GET /agents/{name} with the client's retry policy, its retries told on the resource's row. */
export async function getAgent(call: Call, name: string): Promise<ServiceAgent> {
  return (await call.service.client()).getAgent(name, { signal: call.signal, onRetry: call.log.retry });
}

export async function readVerb(request: ReadRequest): Promise<ReadResult> {
  const { id, olds, marks } = request;
  const adopting = olds?.["serviceName"] === undefined;
  let agent: ServiceAgent;
  try {
    agent = await getAgent(request, id);
  } catch (error) {
    if (error instanceof NotFoundError) {
      if (adopting) throw new AgentNotFoundError(id, error);
      return undefined;
    }
    throw error;
  }
  const inputs = inputsFromAgent(agent, adopting ? {} : (olds ?? {}));
  return { id: agent.name, outputs: toOutputs(inputs, agent, marks.secretInputs), marks, inputs: { ...inputs, name: agent.name } };
}
