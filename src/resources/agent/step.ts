/**
 * A create or update in progress (a step), and what it leaves when it does
 * not finish: an error that carries the agent's id and its last known
 * outputs with the pending mark, which each host turns into the engine's
 * "initialization failed" answer, so the agent stays in the state and the
 * next `up` continues instead of sending the request again.
 */
import { AgentIncompleteError } from "../../client/errors";
import type { Call, Marks, Props } from "../../core/resource-entry";
import { withMarks } from "../../core/state-marks";
import { AGENT_FIELDS } from "./fields";
import type { AgentInputs } from "./inputs-outputs";
import { inputValues, outputProps, outputsWithoutAnswer, toOutputs } from "./outputs";
import type { ServiceAgent } from "./service-agent";

export type Verb = "create" | "update";

/** The spec an update's onFailure "rollback" returns to: the previous outputs' service fields, and their deployment. */
export interface LastReady {
  inputs: AgentInputs;
  deploymentId: string;
}

/** A create or update in progress: what its errors and kept outputs are made of. */
export interface Step {
  verb: Verb;
  inputs: AgentInputs;
  secretInputs: readonly string[];
  call: Call;
  /** Epoch milliseconds at which the engine's limit for the operation ends (customTimeouts; the native plugin only). */
  deadline?: number;
  /** For an update: the last ready spec (none when the previous state holds an unfinished step). */
  lastReady?: LastReady;
  /** An update back to the last ready spec (onFailure "rollback"): kept unfinished, it is marked pending "rollback". */
  rollback?: true;
}

/** A step of `verb` starting now: its deadline is the engine's limit from now. */
export function startStep(verb: Verb, inputs: AgentInputs, secretInputs: readonly string[], call: Call, lastReady?: LastReady): Step {
  const step: Step = { verb, inputs, secretInputs, call };
  if (call.timeoutMs !== undefined) step.deadline = Date.now() + call.timeoutMs;
  if (lastReady !== undefined) step.lastReady = lastReady;
  return step;
}

/** Milliseconds left of the engine's limit for the step (none without one). */
export function remainingMs(step: Step): number | undefined {
  return step.deadline === undefined ? undefined : Math.max(0, step.deadline - Date.now());
}

/**
 * Outputs kept for an operation that did not finish: the last answer, with
 * the declared inputs (so the next `up` sees nothing new to send and waits
 * instead of sending it again) and the pending mark.
 */
export function pendingProperties(step: Step, agent: ServiceAgent | undefined): Props {
  const { inputs, secretInputs, verb } = step;
  const outputs = agent ? outputProps(toOutputs(inputs, agent), secretInputs) : outputsWithoutAnswer(inputs);
  const declared = inputValues(inputs);
  for (const field of AGENT_FIELDS) {
    const value = declared[field.name];
    if (!field.answer && value !== undefined) outputs[field.name] = value;
  }
  const marks: Marks = { secretInputs, pending: step.rollback ? "rollback" : verb };
  // An unfinished update keeps the spec it replaced, which onFailure "rollback" returns to when the next `up` finds it failed.
  if (verb === "update" && !step.rollback && step.lastReady) {
    marks.lastReady = { deploymentId: step.lastReady.deploymentId, spec: inputValues(step.lastReady.inputs) };
  }
  return withMarks(outputs, marks);
}

export const KEEP_NOTE = "The agent is kept in the stack's state; the next `pulumi up` checks on it and waits again instead of sending the request twice.";

/** A failure after the request may have been acted on. */
export function incompleteError(step: Step, agent: ServiceAgent | undefined, cause: unknown): AgentIncompleteError {
  const why = cause instanceof Error ? cause.message : String(cause);
  const name = step.inputs.serviceName;
  const message = `agent "${name}": the ${step.verb} was sent, but then failed: ${why}\n${KEEP_NOTE}`;
  return new AgentIncompleteError(message, name, pendingProperties(step, agent), { cause });
}
