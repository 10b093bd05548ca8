/**
 * A create or update that an earlier `up` sent and that did not finish: it
 * is not sent again; the agent is read and waited for. A create whose agent
 * never appeared is posted again.
 */
import { NotFoundError } from "../../client/errors";
import type { Stored } from "../../core/resource-entry";
import { postAgent } from "./create";
import { finish } from "./finish";
import type { Step } from "./incomplete";
import { getAgent } from "./read";
import type { ServiceAgent } from "./service-agent";

export async function resume(step: Step): Promise<Stored> {
  let agent: ServiceAgent;
  try {
    agent = await getAgent(step.call, step.inputs.serviceName);
  } catch (error) {
    if (!(error instanceof NotFoundError) || step.verb !== "create") throw error;
    agent = await postAgent(step.inputs, step.call);
  }
  return finish(step, { agent });
}
