/**
 * The Agents of a preview and what the preview plans for each: the steps of
 * one resource (a replace is several) folded into one operation, with each
 * changed property before and after.
 */
import { AGENT_FIELDS, AGENT_OUTPUTS } from "../resources/agent/fields";
import { agentProviderKind } from "./agent-types";
import type { AgentProviderKind } from "./agent-types";
import { liveSessionsCut } from "./live-sessions";
import type { LiveSessions } from "./live-sessions";
import { IMAGE_DIGEST, newBuild } from "./new-build";
import type { NewBuild } from "./new-build";
import type { PreviewDigest, PreviewStep } from "./preview";
import { propertyValue, sameValue } from "./property-value";
import type { PropertyValue } from "./property-value";
import { secretPropertyNames } from "./secrets";
import { parseUrn } from "./urn";

export type AgentOperation = "create" | "update" | "replace" | "delete" | "same" | "read" | "import" | "other";

export interface PropertyChange {
  name: string;
  before: PropertyValue;
  after: PropertyValue;
  /**
   * Secret before and after, and not named by the provider's diff: the
   * preview masks both values, so it cannot show whether this one changes.
   */
  secretUnsure?: true;
}

export interface AgentChange {
  urn: string;
  /** The resource's name in the program. */
  resource: string;
  provider: AgentProviderKind;
  operation: AgentOperation;
  /** The engine's own step operations for this resource, in order. */
  steps: string[];
  /** The properties the provider says force the replace. */
  replaceReasons: string[];
  serviceNameBefore: PropertyValue;
  serviceNameAfter: PropertyValue;
  /** For create: the inputs; for delete: the old inputs; for update and replace: what changes. */
  properties: PropertyChange[];
  /** The live sessions of the agent (its last-read outputs) that this change cuts, when it cuts any. */
  liveSessions?: LiveSessions;
  /** For update and replace: the same tag now naming another digest (`imageDigest` moved). */
  newBuild?: NewBuild;
}

/** The Agent's inputs, in the model's order: the order a reviewer reads them in; any other input follows alphabetically. */
const INPUT_ORDER: readonly string[] = AGENT_FIELDS.map((field) => field.name);
/** Outputs that `check` carries among the inputs (`name`, from serviceName): not the user's inputs. */
const CARRIED_OUTPUTS = new Set<string>(AGENT_OUTPUTS.map((output) => output.name).filter((name) => !INPUT_ORDER.includes(name)));

/**
 * Whether an input is shown: not the dynamic provider's reserved `__` keys
 * (its serialized code `__provider` and the provider's bookkeeping) and not
 * an output carried among the inputs.
 */
function shown(name: string): boolean {
  return !name.startsWith("__") && !CARRIED_OUTPUTS.has(name);
}

const REPLACE_STEPS = new Set(["replace", "create-replacement", "delete-replaced", "read-replacement", "import-replacement"]);
const PLAIN_STEPS: Record<string, AgentOperation> = {
  create: "create",
  update: "update",
  delete: "delete",
  same: "same",
  read: "read",
  import: "import",
};

function foldOperation(ops: readonly string[]): AgentOperation {
  if (ops.some((op) => REPLACE_STEPS.has(op))) return "replace";
  for (const op of ["delete", "create", "import", "update", "read", "same"]) {
    if (ops.includes(op)) return PLAIN_STEPS[op] ?? "other";
  }
  return "other";
}

function propertyOrder(a: string, b: string): number {
  const ia = INPUT_ORDER.indexOf(a);
  const ib = INPUT_ORDER.indexOf(b);
  if (ia !== -1 || ib !== -1) return (ia === -1 ? Infinity : ia) - (ib === -1 ? Infinity : ib);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The top-level property a detailed-diff path starts with: `autoScaling.maxAgents` → `autoScaling`. */
function topProperty(path: string): string {
  const quoted = /^\["((?:[^"\\]|\\.)*)"\]/.exec(path);
  if (quoted) return (quoted[1] as string).replace(/\\(.)/g, "$1");
  return path.split(/[.[]/, 1)[0] ?? path;
}

function collectSteps(steps: readonly PreviewStep[]): Map<string, PreviewStep[]> {
  const byUrn = new Map<string, PreviewStep[]>();
  for (const step of steps) {
    const type = step.newState?.type ?? step.oldState?.type ?? parseUrn(step.urn)?.type;
    if (agentProviderKind(type, [step.newState, step.oldState]) === undefined) continue;
    const list = byUrn.get(step.urn) ?? [];
    list.push(step);
    byUrn.set(step.urn, list);
  }
  return byUrn;
}

/**
 * The steps that plan the resource's change: all but a `refresh` step. With
 * `pulumi preview --refresh` each resource has a refresh step first, whose
 * states are the ones recorded before the refresh (the dynamic provider's
 * host reports the same state twice); the planned step's old state is the
 * one the refresh read, which the change is made from.
 */
function plannedSteps(steps: readonly PreviewStep[]): readonly PreviewStep[] {
  const planned = steps.filter((step) => step.op !== "refresh");
  return planned.length > 0 ? planned : steps;
}

function agentChange(urn: string, allSteps: readonly PreviewStep[]): AgentChange {
  const steps = plannedSteps(allSteps);
  const ops = steps.map((s) => s.op);
  const operation = foldOperation(ops);
  const oldState = steps.find((s) => s.oldState)?.oldState;
  const newState = steps.find((s) => s.newState)?.newState;
  const type = newState?.type ?? oldState?.type ?? parseUrn(urn)?.type;
  const secret = secretPropertyNames([oldState, newState]);
  const before = (name: string) => propertyValue(oldState?.inputs?.[name], secret.has(name));
  const after = (name: string) => propertyValue(newState?.inputs?.[name], secret.has(name));

  let names: string[] = [];
  const named = new Set<string>();
  if (operation === "create" || operation === "import") {
    names = Object.keys(newState?.inputs ?? {});
  } else if (operation === "delete") {
    names = Object.keys(oldState?.inputs ?? {});
  } else if (operation === "update" || operation === "replace") {
    // What the provider's diff names (a dynamic provider names only what replaces), and every input that differs.
    for (const step of steps) {
      for (const path of Object.keys(step.detailedDiff ?? {})) named.add(topProperty(path));
      for (const key of [...(step.diffReasons ?? []), ...(step.replaceReasons ?? [])]) named.add(topProperty(key));
    }
    const candidates = new Set(named);
    for (const name of new Set([...Object.keys(oldState?.inputs ?? {}), ...Object.keys(newState?.inputs ?? {})])) {
      if (!sameValue(before(name), after(name))) candidates.add(name);
    }
    names = [...candidates];
  }
  const build = operation === "update" || operation === "replace" ? newBuild(oldState, newState) : undefined;
  const properties = names
    // A moved digest shows as the new-build line; one it cannot read (secret) shows as a property.
    .filter((name) => shown(name) || (name === IMAGE_DIGEST && build === undefined && (operation === "update" || operation === "replace")))
    .sort(propertyOrder)
    .map((name): PropertyChange => {
      const change: PropertyChange = {
        name,
        before: operation === "create" || operation === "import" ? { kind: "unset" } : before(name),
        after: operation === "delete" ? { kind: "unset" } : after(name),
      };
      if (change.before.kind === "secret" && change.after.kind === "secret" && !named.has(name)) change.secretUnsure = true;
      return change;
    })
    .filter((change) => !(change.before.kind === "unset" && change.after.kind === "unset"));

  const serviceNameBefore = oldState
    ? before("serviceName").kind === "unset"
      ? propertyValue(oldState.outputs?.["name"], secret.has("name"))
      : before("serviceName")
    : { kind: "unset" as const };
  const change: AgentChange = {
    urn,
    resource: parseUrn(urn)?.name ?? urn,
    provider: agentProviderKind(type, [newState, oldState]) ?? "dynamic",
    operation,
    steps: allSteps.map((s) => s.op),
    replaceReasons: [...new Set(steps.flatMap((step) => (step.replaceReasons ?? []).map(topProperty)))],
    serviceNameBefore,
    serviceNameAfter: newState ? after("serviceName") : { kind: "unset" },
    properties,
  };
  const refreshed = allSteps.some((step) => step.op === "refresh");
  const liveSessions = liveSessionsCut(operation, { old: oldState, new: newState }, properties, { refreshed, secret });
  if (liveSessions) change.liveSessions = liveSessions;
  if (build) change.newBuild = build;
  return change;
}

/** The order of the review: what removes an agent first, what leaves it alone last. */
const OPERATION_ORDER: AgentOperation[] = ["delete", "replace", "update", "create", "import", "read", "other", "same"];

/**
 * Every Agent of the preview: by operation, then by name. (The engine's own
 * order varies from run to run, and one comment is updated on every push.)
 */
export function agentChanges(digest: PreviewDigest): AgentChange[] {
  return [...collectSteps(digest.steps)]
    .map(([urn, steps]) => agentChange(urn, steps))
    .sort(
      (a, b) =>
        OPERATION_ORDER.indexOf(a.operation) - OPERATION_ORDER.indexOf(b.operation) ||
        (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0),
    );
}
