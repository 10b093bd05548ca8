/**
 * Live sessions a planned change cuts, read from the Agent's last-read
 * outputs: the planned step's old state, as of the last `pulumi up` or
 * refresh (of this preview's refresh, with `pulumi preview --refresh`).
 *
 * - A delete, and the replace's delete of the old agent, waits up to the
 *   `drainSeconds` the state records (0 by default: the delete receives the
 *   old state, never the program's new value) for the sessions to end, then
 *   cuts those still live.
 * - An update that makes a new deployment (anything but a scaling-only or a
 *   provider-settings-only change) cuts them on a service that switches to it
 *   at once. A service that rolls updates sends `desiredDeploymentId`, and
 *   keeps the old deployment serving until the new one validates: its
 *   updates are not marked.
 */
import { agentField } from "../resources/agent/fields";
import { formatValue } from "./markdown-text";
import type { PreviewState } from "./preview";
import { propertyValue } from "./property-value";
import type { PropertyValue } from "./property-value";

export interface LiveSessions {
  /** `activeSessionCount` of the last-read outputs, > 0. */
  count: number;
  /** The planned operation that cuts them. */
  by: "delete" | "replace" | "update";
  /** Whether the count comes from this preview's refresh (`pulumi preview --refresh`). */
  refreshed: boolean;
  /** Delete and replace: the `drainSeconds` the delete waits, as the old state records it (unset is the default, 0). */
  drainSeconds?: PropertyValue;
  /** Replace: the program's new `drainSeconds`, when it differs from the old one; it applies to the new agent only. */
  newDrainSeconds?: PropertyValue;
}

/** A changed input, as the review lists it. */
interface Changed {
  name: string;
}

const SCALING_FIELD = "autoScaling";
const DRAIN_FIELD = "drainSeconds";

/**
 * Whether an update of these inputs makes a new deployment: a change of any
 * input sent to the service but the scaling, or of a provider setting whose
 * change posts the update (`redeployTrigger`). Settings that send nothing,
 * and inputs the model does not know, make none.
 */
export function makesNewDeployment(changed: readonly Changed[]): boolean {
  return changed.some(({ name }) => {
    const field = agentField(name);
    if (!field || field.change !== "update") return false;
    return field.sentTo === "provider" || name !== SCALING_FIELD;
  });
}

/** `activeSessionCount` of a state's outputs, when it is a count above 0. */
function sessionCount(state: PreviewState | undefined): number | undefined {
  const count = state?.outputs?.["activeSessionCount"];
  return typeof count === "number" && Number.isInteger(count) && count > 0 ? count : undefined;
}

/** Whether the service that answered these outputs rolls updates: it sends `desiredDeploymentId`. */
function rollsUpdates(state: PreviewState | undefined): boolean {
  const desired = state?.outputs?.["desiredDeploymentId"];
  return desired !== undefined && desired !== null;
}

/** `drainSeconds` of a state: its input, else its output (every input is an output, with its default), else unset. */
function drainSecondsOf(state: PreviewState | undefined, secret: boolean): PropertyValue {
  const raw = state?.inputs?.[DRAIN_FIELD] ?? state?.outputs?.[DRAIN_FIELD];
  return propertyValue(raw, secret);
}

/** The value the delete waits, for comparison: unset is the default 0. */
function effective(value: PropertyValue): PropertyValue {
  return value.kind === "unset" ? { kind: "value", value: 0 } : value;
}

function same(a: PropertyValue, b: PropertyValue): boolean {
  return a.kind === b.kind && (a.kind !== "value" || b.kind !== "value" || JSON.stringify(a.value) === JSON.stringify(b.value));
}

/**
 * The live sessions the planned operation cuts, or undefined when it cuts
 * none (no live sessions in the last-read outputs, an operation that
 * deletes nothing, or an update on a service that rolls updates or that
 * keeps the deployment).
 */
export function liveSessionsCut(
  operation: string,
  states: { old?: PreviewState | undefined; new?: PreviewState | undefined },
  changed: readonly Changed[],
  options: { refreshed: boolean; secret: ReadonlySet<string> },
): LiveSessions | undefined {
  const count = sessionCount(states.old);
  if (count === undefined) return undefined;
  const secret = options.secret.has(DRAIN_FIELD);
  if (operation === "delete" || operation === "replace") {
    const drainSeconds = drainSecondsOf(states.old, secret);
    const sessions: LiveSessions = { count, by: operation, refreshed: options.refreshed, drainSeconds };
    if (operation === "replace" && states.new) {
      const next = drainSecondsOf(states.new, secret);
      if (!same(effective(next), effective(drainSeconds))) sessions.newDrainSeconds = next;
    }
    return sessions;
  }
  if (operation === "update" && !rollsUpdates(states.old) && makesNewDeployment(changed)) {
    return { count, by: "update", refreshed: options.refreshed };
  }
  return undefined;
}

/** "1 live session", "2 live sessions". */
export function sessionsText(count: number): string {
  return `${count} live session${count === 1 ? "" : "s"}`;
}

function asOf(refreshed: boolean): string {
  return refreshed ? "as of this preview's refresh" : "as of the last `pulumi up` or refresh; `pulumi preview --refresh` reads the current count";
}

/** What the review says of the sessions a change cuts: one line each, without the quote's `> `. */
export function liveSessionsLines(sessions: LiveSessions): string[] {
  const one = sessions.count === 1;
  const head = `**${sessionsText(sessions.count)}** (${asOf(sessions.refreshed)})`;
  if (sessions.by === "update") {
    return [
      `${head} will be cut: this update makes a new deployment, and this service switches to it at once ` +
        "(the agent's outputs carry no `desiredDeploymentId`, which a service that rolls updates sends).",
    ];
  }
  const deletion = sessions.by === "replace" ? "the old agent's delete" : "the delete";
  const drain = effective(sessions.drainSeconds ?? { kind: "unset" });
  const lines: string[] = [];
  if (drain.kind === "value" && drain.value === 0) {
    lines.push(`${head} will be cut: \`drainSeconds\` is 0, so ${deletion} does not wait for ${one ? "it" : "them"} to end.`);
  } else if (drain.kind === "value" && typeof drain.value === "number") {
    lines.push(`${head} will be cut unless ${one ? "it ends" : "they end"} within the ${drain.value} s (\`drainSeconds\`) ${deletion} waits.`);
  } else {
    lines.push(`${head} will be cut unless ${one ? "it ends" : "they end"} within \`drainSeconds\` (${formatValue(drain)}), which ${deletion} waits.`);
  }
  if (sessions.newDrainSeconds) {
    lines.push(
      `The old agent's delete waits what its state records, not the program's new \`drainSeconds\` (${formatValue(effective(sessions.newDrainSeconds))}): ` +
        `to let ${one ? "the session" : "the sessions"} end, apply that with a \`pulumi up\` before the replace.`,
    );
  } else if (drain.kind === "value" && drain.value === 0) {
    lines.push(`To let ${one ? "it" : "them"} end, set \`drainSeconds\` and run \`pulumi up\` before this change: a delete waits what the state records.`);
  }
  return lines;
}
