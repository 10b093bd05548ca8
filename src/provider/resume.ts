/**
 * A create or update that an earlier `up` sent and that did not finish: it
 * is not sent again; the agent is read and waited for. A create whose agent
 * never appeared is posted again.
 */
import { NotFoundError } from "../client/errors";
import type { ServiceAgent } from "../model";
import type { Props, VerbContext } from "./context";
import { postAgent } from "./create";
import type { Step } from "./failures";
import { finish } from "./finish";
import { patientGetAgent } from "./wait";

export async function resume(step: Step, context: VerbContext): Promise<Props> {
  let agent: ServiceAgent;
  try {
    agent = await patientGetAgent(context.client, step.inputs.serviceName, { signal: context.signal });
  } catch (error) {
    if (!(error instanceof NotFoundError) || step.verb !== "create") throw error;
    agent = await postAgent(step.inputs, context);
  }
  return finish(step, context, { agent });
}
