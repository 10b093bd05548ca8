/**
 * What changed outside Pulumi, per Agent, from either document:
 *
 * - `pulumi refresh --preview-only --json`: a refresh that finds a change
 *   with a per-field diff becomes an `update` step (old = the stack's state,
 *   new = what the service has), one that finds the agent gone a `delete`
 *   step. A provider that reports no per-field diff (the dynamic provider's
 *   host drops it) leaves a `refresh` step whose states are unchanged, and
 *   only the counts say something changed: those are "unattributed".
 * - `pulumi preview --refresh --json`: each resource's `refresh` step is
 *   followed by the program's step, framed the other way round: old = what
 *   the service has, new = what the program declares; a `create` of an Agent
 *   the refresh saw means it was deleted outside Pulumi.
 */
import { AGENT_FIELDS, agentField } from "../resources/agent/fields";
import { agentProviderKind } from "./agent-types";
import type { AgentProviderKind } from "./agent-types";
import type { PreviewDigest, PreviewDiagnostic, PreviewState, PreviewStep } from "./preview";
import { propertyValue, sameValue } from "./property-value";
import type { PropertyValue } from "./property-value";
import { newBuild } from "./new-build";
import type { NewBuild } from "./new-build";
import { containsSecret, secretPropertyNames } from "./secrets";
import { stackIdentity } from "./stack-identity";
import type { StackIdentity } from "./stack-identity";
import { parseUrn } from "./urn";

export interface FieldDrift {
  name: string;
  /** What the stack records (a refresh preview) or the program declares (a preview with --refresh). */
  expected: PropertyValue;
  /** What the service has. */
  atService: PropertyValue;
}

export interface AgentDrift {
  urn: string;
  resource: string;
  provider: AgentProviderKind;
  serviceName: PropertyValue;
  kind: "changed" | "deleted";
  fields: FieldDrift[];
}

/** An Agent whose service serves one deployment while it rolls out another (its desiredDeploymentId differs from activeDeploymentId): not drift, but never "no drift" either. */
export interface PendingRollout {
  resource: string;
  serviceName: PropertyValue;
  serving: string;
  pending: string;
}

/**
 * An Agent whose tag names another digest than the one it was deployed with:
 * a build pushed since, which `pulumi up` rolls out. Only a preview with
 * --refresh resolves the tag again (its check); a refresh preview does not.
 */
export interface MovedTag {
  resource: string;
  serviceName: PropertyValue;
  build: NewBuild;
}

export interface DriftReport extends StackIdentity {
  source: "refresh-preview" | "preview-refresh";
  drifted: AgentDrift[];
  /** Resources the counts say changed that the document does not name (see the file comment). */
  unattributed: number;
  /** Agents a refresh read without a per-field diff: the candidates for the unattributed changes. */
  unattributedCandidates: string[];
  /** Agents whose program change is not applied yet (preview with --refresh): not drift. */
  pending: string[];
  /** Agents the service serves from an older deployment while a newer one is pending, as the refresh read them. */
  rollouts: PendingRollout[];
  /** Agents whose tag moved since they were deployed (preview with --refresh only). */
  movedTags: MovedTag[];
  errors: PreviewDiagnostic[];
}

const PROGRAM_OPS = new Set(["same", "create", "update", "replace", "create-replacement", "delete-replaced", "delete", "import", "read"]);
const FIELD_ORDER: readonly string[] = AGENT_FIELDS.map((field) => field.name);

/** Inputs a drift is about: the service's fields, not the provider's settings, the reserved `__` keys or carried outputs. */
function serviceField(name: string): boolean {
  return agentField(name)?.sentTo === "service";
}

/**
 * The service's fields that differ. A field secret on both sides is masked in
 * the document; it counts only when the provider's diff names it.
 */
function fieldDrifts(expected: PreviewState | undefined, atService: PreviewState | undefined, named: ReadonlySet<string>): FieldDrift[] {
  const secret = secretPropertyNames([expected, atService]);
  const names = new Set([...Object.keys(expected?.inputs ?? {}), ...Object.keys(atService?.inputs ?? {})]);
  return [...names]
    .filter(serviceField)
    .sort((a, b) => FIELD_ORDER.indexOf(a) - FIELD_ORDER.indexOf(b))
    .map((name) => ({
      name,
      expected: propertyValue(expected?.inputs?.[name], secret.has(name)),
      atService: propertyValue(atService?.inputs?.[name], secret.has(name)),
    }))
    .filter((field) =>
      field.expected.kind === "secret" && field.atService.kind === "secret" ? named.has(field.name) : !sameValue(field.expected, field.atService),
    );
}

/** The top-level properties a step's diff names. */
function namedByDiff(step: PreviewStep): Set<string> {
  const keys = [...Object.keys(step.detailedDiff ?? {}), ...(step.diffReasons ?? []), ...(step.replaceReasons ?? [])];
  return new Set(keys.map((key) => key.split(/[.[]/, 1)[0] ?? key));
}

const CHANGE_OPS = new Set(["update", "replace", "create-replacement", "delete-replaced"]);

function serviceNameOf(state: PreviewState | undefined): PropertyValue {
  const raw = state?.inputs?.["serviceName"] ?? state?.outputs?.["name"];
  return propertyValue(raw, containsSecret(raw));
}

function agentSteps(digest: PreviewDigest): Map<string, PreviewStep[]> {
  const byUrn = new Map<string, PreviewStep[]>();
  for (const step of digest.steps) {
    const type = step.newState?.type ?? step.oldState?.type ?? parseUrn(step.urn)?.type;
    if (agentProviderKind(type, [step.newState, step.oldState]) === undefined) continue;
    byUrn.set(step.urn, [...(byUrn.get(step.urn) ?? []), step]);
  }
  return byUrn;
}

/** The deployment the service serves and the one it rolls out, when they differ, from the agent's outputs as the service reported them. */
function pendingRollout(resource: string, state: PreviewState | undefined): PendingRollout | undefined {
  const serving = state?.outputs?.["activeDeploymentId"];
  const pending = state?.outputs?.["desiredDeploymentId"];
  if (typeof serving !== "string" || typeof pending !== "string" || pending === serving) return undefined;
  return { resource, serviceName: serviceNameOf(state), serving, pending };
}

/** The agent as the refresh read it at the service: the refresh step's new state, else the step that frames the service's side. */
function serviceState(steps: readonly PreviewStep[], source: DriftReport["source"]): PreviewState | undefined {
  const refreshed = steps.find((s) => s.op === "refresh");
  const program = steps.find((s) => s.op !== "refresh");
  if (source === "refresh-preview") return program?.op === "update" ? program.newState : (refreshed?.newState ?? refreshed?.oldState);
  return refreshed?.newState ?? program?.oldState;
}

export function driftReport(digest: PreviewDigest, given: Partial<StackIdentity> = {}): DriftReport {
  const source = digest.steps.some((step) => PROGRAM_OPS.has(step.op) && step.op !== "delete" && step.op !== "update") ? "preview-refresh" : "refresh-preview";
  const drifted: AgentDrift[] = [];
  const candidates: string[] = [];
  const pending: string[] = [];
  const rollouts: PendingRollout[] = [];
  const movedTags: MovedTag[] = [];
  for (const [urn, steps] of agentSteps(digest)) {
    const resource = parseUrn(urn)?.name ?? urn;
    const rollout = pendingRollout(resource, serviceState(steps, source));
    if (rollout) rollouts.push(rollout);
    const refreshed = steps.find((s) => s.op === "refresh");
    const program = steps.find((s) => s.op !== "refresh");
    const state = refreshed?.oldState ?? program?.oldState ?? program?.newState;
    const type = state?.type ?? parseUrn(urn)?.type;
    const base = { urn, resource, provider: agentProviderKind(type, [state]) ?? "dynamic" } as const;
    if (source === "refresh-preview") {
      if (program?.op === "delete") drifted.push({ ...base, serviceName: serviceNameOf(program.oldState), kind: "deleted", fields: [] });
      else if (program?.op === "update") {
        drifted.push({ ...base, serviceName: serviceNameOf(program.oldState), kind: "changed", fields: fieldDrifts(program.oldState, program.newState, namedByDiff(program)) });
      } else if (refreshed) candidates.push(resource);
      continue;
    }
    if (!program || program.op === "same") continue;
    const build = refreshed && CHANGE_OPS.has(program.op) ? newBuild(serviceState(steps, source), program.newState) : undefined;
    if (build) movedTags.push({ resource, serviceName: serviceNameOf(program.oldState ?? refreshed?.oldState), build });
    if (program.op === "create" && refreshed) {
      drifted.push({ ...base, serviceName: serviceNameOf(refreshed.oldState), kind: "deleted", fields: [] });
    } else if (CHANGE_OPS.has(program.op) && refreshed) {
      // An update or replace of a refreshed Agent: what the service has (old) against what the program declares (new).
      const declared = steps.find((s) => s.newState && s.op !== "refresh")?.newState;
      const atService = steps.find((s) => s.oldState && s.op !== "refresh")?.oldState ?? refreshed.oldState;
      const named = new Set(steps.flatMap((s) => [...namedByDiff(s)]));
      const fields = fieldDrifts(declared, atService, named);
      if (fields.length > 0) drifted.push({ ...base, serviceName: serviceNameOf(program.oldState ?? refreshed.oldState), kind: "changed", fields });
    } else {
      pending.push(resource);
    }
  }
  const namedUpdates = digest.steps.filter((s) => s.op === "update").length;
  const unattributed = source === "refresh-preview" ? Math.max(0, (digest.changeSummary["update"] ?? 0) - namedUpdates) : 0;
  return {
    ...stackIdentity(digest.steps, given),
    source,
    drifted: drifted.sort((a, b) => (a.kind === b.kind ? (a.resource < b.resource ? -1 : 1) : a.kind === "deleted" ? -1 : 1)),
    unattributed,
    unattributedCandidates: unattributed > 0 ? candidates.sort() : [],
    pending: pending.sort(),
    rollouts: rollouts.sort((a, b) => (a.resource < b.resource ? -1 : 1)),
    movedTags: movedTags.sort((a, b) => (a.resource < b.resource ? -1 : 1)),
    errors: digest.diagnostics.filter((d) => d.severity === "error" && d.message),
  };
}

/**
 * Whether the report finds drift (also drift the document does not
 * attribute), or a tag moved since its Agent was deployed: either way what
 * runs is not what `pulumi up` deploys.
 */
export function hasDrift(report: DriftReport): boolean {
  return report.drifted.length > 0 || report.unattributed > 0 || report.movedTags.length > 0;
}
