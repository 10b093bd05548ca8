/**
 * The errors of a create or update that reached the service but did not
 * finish. They carry the agent's id and its last known outputs, which the
 * dynamic provider host turns into the engine's "initialization failed"
 * answer, so the agent stays in the state and the next `up` continues.
 */
import type { AgentHostingClient } from "../client/client";
import { AgentIncompleteError, AgentNotReadyError } from "../client/errors";
import { AGENT_FIELDS, type AgentField, type AgentInputs, type ServiceAgent } from "../model";
import { outputsWithoutAnswer, toOutputs, type OutputMarks } from "./outputs";
import { PROVIDER_KEY } from "./types";

export type Verb = "create" | "update";

/** A create or update in progress: what its errors and kept outputs are made of. */
export interface Step {
  verb: Verb;
  inputs: AgentInputs;
  marks: OutputMarks;
  /** The properties the engine passed, carrying the provider's reserved values. */
  props: Record<string, unknown>;
}

/** The newest log lines of the agent's deployment, newest last, or a note why there are none. */
export async function newestLogLines(client: AgentHostingClient, agent: ServiceAgent, count = 10): Promise<string[]> {
  try {
    const result = await client.getAgentLogs({
      agentName: agent.name,
      deploymentId: agent.activeDeploymentId,
      limit: count,
      order: "desc",
    });
    return result.logs.map((e) => `${e.timestamp} ${e.log}`).reverse();
  } catch (error) {
    return [`(could not read the logs: ${error instanceof Error ? error.message : String(error)})`];
  }
}

/**
 * Outputs kept for an operation that did not finish: the last answer, with
 * the declared inputs (so the next `up` sees nothing new to send and waits
 * instead of sending it again) and the pending mark.
 */
export function pendingOutputs(step: Step, agent: ServiceAgent | undefined): Record<string, unknown> {
  const { verb, inputs, marks } = step;
  const pending = { ...marks, pending: verb };
  const outputs = agent ? toOutputs(inputs, agent, pending) : outputsWithoutAnswer(inputs, pending);
  for (const field of AGENT_FIELDS as readonly AgentField[]) {
    const value = (inputs as unknown as Record<string, unknown>)[field.name];
    if (!field.answer && value !== undefined) outputs[field.name] = value;
  }
  return { ...outputs, [PROVIDER_KEY]: step.props[PROVIDER_KEY] };
}

const KEEP_NOTE = "The agent is kept in the stack's state; the next `pulumi up` checks on it and waits again instead of sending the request twice.";

/** A failure after the request may have been acted on. */
export function incompleteError(step: Step, agent: ServiceAgent | undefined, cause: unknown): AgentIncompleteError {
  const why = cause instanceof Error ? cause.message : String(cause);
  const name = step.inputs.serviceName;
  const message = `agent "${name}": the ${step.verb} was sent, but then failed: ${why}\n${KEEP_NOTE}`;
  return new AgentIncompleteError(message, name, pendingOutputs(step, agent), { cause });
}

/** Where a wait for readiness ended without it. */
export interface NotReady {
  agent: ServiceAgent | undefined;
  waitedMs: number;
  lastError: unknown;
}

export async function notReadyError(step: Step, client: AgentHostingClient, ended: NotReady): Promise<AgentNotReadyError> {
  const { verb, inputs } = step;
  const { agent, waitedMs, lastError } = ended;
  const lines = agent ? await newestLogLines(client, agent) : [];
  const state = agent
    ? `ready=${agent.ready}, activeDeploymentReady=${agent.activeDeploymentReady}, activeDeploymentId=${agent.activeDeploymentId}, deployment ${agent.deployment === null ? "not reported yet" : "reported"}`
    : "no answer to any poll";
  const failure = lastError === undefined ? "" : `; the last poll failed: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
  const reason = `agent "${inputs.serviceName}" did not become ready within ${Math.round(waitedMs / 1000)} s after ${verb} (last seen: ${state}${failure})`;
  const message = [
    reason,
    ...(lines.length > 0 ? ["newest log lines:", ...lines.map((l) => `  ${l}`)] : []),
    `${KEEP_NOTE} Raise readyTimeoutSeconds or fix the image.`,
  ].join("\n");
  return new AgentNotReadyError(message, inputs.serviceName, pendingOutputs(step, agent), {
    cause: lastError,
  });
}
