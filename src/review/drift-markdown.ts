/**
 * The Markdown of a drift report, for the issue a scheduled pipeline keeps
 * open while a stack has drift: the marker, what was deleted outside Pulumi
 * first, then each changed Agent's fields (the stack's value against the
 * service's), the Agents whose tag names a new build, and how to resolve it.
 */
import { commentMarker } from "./comment";
import type { AgentDrift, DriftReport } from "./drift";
import { hasDrift } from "./drift";
import { codeBlock, formatValue, inlineCode } from "./markdown-text";
import { newBuildText } from "./new-build";
import { maskSecretsInText } from "./secrets";

const MAX_ERROR_LENGTH = 2_000;

function deletedWarning(agent: AgentDrift): string[] {
  return [
    "> [!CAUTION]",
    `> **Deleted outside Pulumi:** ${inlineCode(agent.resource)} (agent ${formatValue(agent.serviceName)}). ` +
      "`pulumi up` creates it again; removing it from the program and running `pulumi refresh` forgets it.",
  ];
}

function changedSection(agent: AgentDrift, expectedLabel: string): string[] {
  const lines = [`#### ${inlineCode(agent.resource)}${agent.provider === "native" ? " _(native provider)_" : ""}`, "", `| field | ${expectedLabel} | at the service |`, "|---|---|---|"];
  for (const field of agent.fields) {
    lines.push(`| ${inlineCode(field.name)} | ${formatValue(field.expected).replace(/\|/g, "\\|")} | ${formatValue(field.atService).replace(/\|/g, "\\|")} |`);
  }
  if (agent.fields.length === 0) lines.push("| _the provider named no field_ | | |");
  return lines;
}

export function renderDrift(report: DriftReport): string {
  const deleted = report.drifted.filter((a) => a.kind === "deleted");
  const changed = report.drifted.filter((a) => a.kind === "changed");
  const expectedLabel = report.source === "refresh-preview" ? "in the stack" : "in the program";
  const lines = [commentMarker("drift", report.project, report.stack), `## Agent Hosting drift: stack ${inlineCode(report.stack)}`, ""];
  const rolling = report.rollouts.length > 0 ? `**${report.rollouts.length}** serving an older deployment while a new one is pending` : "";
  if (!hasDrift(report) && rolling === "") {
    lines.push(`Project ${inlineCode(report.project)}: no drift. Every Agent matches ${report.source === "refresh-preview" ? "the stack's state" : "the program"}.`);
  } else if (!hasDrift(report)) {
    lines.push(`Project ${inlineCode(report.project)}: nothing changed outside Pulumi · ${rolling}`);
  } else {
    const counts = [
      report.movedTags.length > 0 ? `**${report.movedTags.length}** with a new build behind the tag` : "",
      changed.length > 0 ? `**${changed.length}** changed outside Pulumi` : "",
      deleted.length > 0 ? `**${deleted.length}** deleted outside Pulumi` : "",
      report.unattributed > 0 ? `**${report.unattributed}** changed, not named by the document` : "",
      rolling,
    ].filter(Boolean);
    lines.push(`Project ${inlineCode(report.project)}: ${counts.join(" · ")}`);
  }
  for (const agent of deleted) lines.push("", ...deletedWarning(agent));
  if (changed.length > 0) {
    lines.push("", "### Changed outside Pulumi");
    for (const agent of changed) lines.push("", ...changedSection(agent, expectedLabel));
  }
  if (report.movedTags.length > 0) {
    lines.push("", "### Tags moved since deployed", "");
    for (const moved of report.movedTags) lines.push(`- ${inlineCode(moved.resource)} (agent ${formatValue(moved.serviceName)}): ${newBuildText(moved.build)}`);
    lines.push("", "`pulumi up` rolls each new build out.");
  }
  if (report.unattributed > 0) {
    const named = report.unattributedCandidates.map(inlineCode).join(", ");
    lines.push(
      "",
      `**${report.unattributed}** resource(s) changed outside Pulumi that \`pulumi refresh --preview-only --json\` does not name: ` +
        "the dynamic provider's Agents report no per-field diff to a refresh preview" +
        `${named ? ` (refreshed: ${named})` : ""}. Run \`pulumi preview --refresh --json\` for the fields.`,
    );
  }
  if (report.rollouts.length > 0) {
    lines.push("", "### Deployments not serving yet");
    for (const r of report.rollouts) {
      lines.push(
        "",
        `- ${inlineCode(r.resource)} (agent ${formatValue(r.serviceName)}): the service serves deployment ${inlineCode(r.serving)} while deployment ${inlineCode(r.pending)} is pending: ` +
          "it has not validated yet, or never does (its log lines say why). `pulumi up` waits for it; a new image fixes one that never validates.",
      );
    }
  }
  if (report.pending.length > 0) {
    lines.push("", `_Not drift: the program changes ${report.pending.map(inlineCode).join(", ")}, not yet applied._`);
  }
  if (hasDrift(report)) {
    lines.push(
      "",
      "To resolve: `pulumi up` puts back what the program declares; or change the program to what runs now and `pulumi refresh`.",
    );
  }
  const errors = report.errors;
  if (errors.length > 0) {
    lines.push("", "### Errors");
    for (const error of errors) {
      const message = maskSecretsInText(error.message ?? "").trimEnd();
      lines.push("", codeBlock(message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH)}…` : message));
    }
  }
  return `${lines.join("\n")}\n`;
}
