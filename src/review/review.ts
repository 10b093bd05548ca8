/** From the text of `pulumi preview --json` to the review: its Markdown and the Agents a pipeline refuses. */
import { agentChanges } from "./agent-changes";
import type { AgentChange } from "./agent-changes";
import { withDetails } from "./comment";
import type { FailOn } from "./flags";
import { blockedAgents, renderReview } from "./markdown";
import { parsePreview } from "./preview";
import type { PreviewDigest } from "./preview";
import { previewText } from "./preview-text";
import { driftReport, hasDrift } from "./drift";
import type { DriftReport } from "./drift";
import { renderDrift } from "./drift-markdown";
import { UNKNOWN_NAME } from "./stack-identity";
import type { StackIdentity } from "./stack-identity";
import { parseUpOutput } from "./up-events";
import type { UpResult } from "./up-events";
import { renderUp } from "./up-markdown";

export interface Review {
  /** The comment: the summary, then the whole preview in a collapsible block (or only the marker line, when skipped). */
  markdown: string;
  /** The summary alone. */
  summary: string;
  agents: AgentChange[];
  /** Agents planned for an operation of `failOn`, or whose live sessions the change cuts under `live-sessions`. */
  blocked: AgentChange[];
  /** Whether the preview plans any change or reports an error. */
  changes: boolean;
}

export interface ReviewSettings {
  identity?: Partial<StackIdentity>;
  /** Only the marker line when the preview plans no change and reports no error. */
  skipNoChanges?: boolean;
}

/** Whether a preview plans anything but `same`, or failed. */
export function previewHasChanges(digest: PreviewDigest): boolean {
  const planned = Object.entries(digest.changeSummary).some(([op, count]) => op !== "same" && count > 0);
  return planned || digest.diagnostics.some((d) => d.severity === "error");
}

/** Throws PreviewFormatError when the text is not a preview document. */
export function reviewPreview(text: string, failOn: readonly FailOn[] = [], settings: ReviewSettings = {}): Review {
  const digest = parsePreview(text);
  const agents = agentChanges(digest);
  const summary = renderReview(digest, agents, { failOn, ...(settings.identity ? { identity: settings.identity } : {}) });
  const changes = previewHasChanges(digest);
  const markdown =
    settings.skipNoChanges && !changes
      ? `${summary.split("\n", 1)[0]}\n`
      : withDetails(summary, "The whole preview", previewText(digest));
  return { markdown, summary, agents, blocked: blockedAgents(agents, failOn), changes };
}

export interface DriftReview {
  markdown: string;
  report: DriftReport;
  drifted: boolean;
}

/** The drift report of `pulumi refresh --preview-only --json` or `pulumi preview --refresh --json`. */
export function reviewDrift(text: string, settings: ReviewSettings = {}): DriftReview {
  const digest = parsePreview(text);
  const report = driftReport(digest, settings.identity);
  const drifted = hasDrift(report);
  const summary = renderDrift(report);
  const markdown =
    settings.skipNoChanges && !drifted && report.rollouts.length === 0 && report.errors.length === 0
      ? `${summary.split("\n", 1)[0]}\n`
      : withDetails(summary, "The whole refresh", previewText(digest));
  return { markdown, report, drifted };
}

/** What `pulumi up --json` applied, with the preview's comment (`previous`) below it. */
export function reviewUp(text: string, settings: { identity?: Partial<StackIdentity>; previous?: string } = {}): { markdown: string; result: UpResult } {
  const result = parseUpOutput(text);
  const identity = {
    project: settings.identity?.project ?? result.project ?? UNKNOWN_NAME,
    stack: settings.identity?.stack ?? result.stack ?? UNKNOWN_NAME,
  };
  return { markdown: renderUp(result, identity, settings.previous), result };
}
