/**
 * Read (refresh, and `Agent.get` or an import when no state is passed): the
 * agent as the service holds it, the inputs rebuilt from it. An agent
 * deleted outside Pulumi leaves the state; one asked for by name that does
 * not exist is an AgentNotFoundError.
 */
import { AgentNotFoundError, NotFoundError } from "../client/errors";
import type { ServiceAgent } from "../model";
import type { Props, VerbContext } from "./context";
import { inputsFromAgent, marksOf, toOutputs } from "./outputs";
import { patientGetAgent } from "./wait";

export async function readVerb(id: string, props: Props | undefined, context: VerbContext): Promise<{ id: string; props: Props; inputs?: Props }> {
  const adopting = props?.["serviceName"] === undefined;
  let agent: ServiceAgent;
  try {
    agent = await patientGetAgent(context.client, id, { signal: context.signal });
  } catch (error) {
    if (error instanceof NotFoundError) {
      if (adopting) throw new AgentNotFoundError(id, error);
      return { id: "", props: {} };
    }
    throw error;
  }
  const inputs = inputsFromAgent(agent, adopting ? {} : (props ?? {}));
  const marks = marksOf(props ?? {});
  return { id: agent.name, props: toOutputs(inputs, agent, marks), inputs: { ...inputs, name: agent.name } };
}
