/**
 * The end of a create or update: the wait for readiness when the inputs ask
 * for it. Any failure from here on keeps the agent in the state with the
 * pending mark, so the next `up` checks on it instead of sending it again.
 */
import type { AgentInputs, ServiceAgent } from "../model";
import type { Props, VerbContext } from "./context";
import { incompleteError, notReadyError, type Step } from "./failures";
import { toOutputs } from "./outputs";
import { progressReporter } from "./progress";
import { URN_KEY } from "./types";
import { WaitFailure, waitForAgentReady, type WaitOptions, type WaitResult } from "./wait";

export const urnOf = (props: Props): string | undefined => (typeof props[URN_KEY] === "string" ? props[URN_KEY] : undefined);

export interface Answered {
  /** The agent as the service answered the create or update (none: a resumed create not found yet). */
  agent: ServiceAgent | undefined;
  /** For an update that made a new deployment: the one to wait for. */
  deploymentId?: string | undefined;
}

/** The outputs of a finished step, after waiting for readiness when `inputs.waitForReady` asks for it. */
export async function finish(step: Step, context: VerbContext, answered: Answered): Promise<Props> {
  const { inputs, marks } = step;
  const { agent } = answered;
  const done = { secretInputs: marks.secretInputs };
  if (!inputs.waitForReady && agent !== undefined) return toOutputs(inputs, agent, done);
  const result = await waitFor(step, context, answered);
  if (!result.ready) throw await notReadyError(step, context.client, result);
  return toOutputs(inputs, result.agent, done);
}

async function waitFor(step: Step, context: VerbContext, answered: Answered): Promise<WaitResult> {
  const { client, log } = context;
  const inputs: AgentInputs = step.inputs;
  const urn = urnOf(step.props);
  const options: WaitOptions = {
    name: inputs.serviceName,
    initial: answered.agent,
    timeoutSeconds: inputs.readyTimeoutSeconds,
    onPoll: progressReporter({ client, name: inputs.serviceName, sink: (line) => log.info(line, urn) }),
    signal: context.signal,
    gate: context.gate,
  };
  if (answered.deploymentId !== undefined) options.deploymentId = answered.deploymentId;
  try {
    return await waitForAgentReady(client, options);
  } catch (error) {
    const failure = error instanceof WaitFailure ? error : new WaitFailure(error, answered.agent);
    throw incompleteError(step, failure.agent ?? answered.agent, failure.error);
  }
}
