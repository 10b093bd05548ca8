/**
 * The comment after `pulumi up`: what was applied to each Agent (its new
 * deployment id) and what failed, first; below it, the preview the pull
 * request reviewed (the earlier comment, given with --previous), folded.
 */
import { commentMarker, GITHUB_COMMENT_LIMIT, MARKER_PATTERN } from "./comment";
import { codeBlock, inlineCode } from "./markdown-text";
import { maskSecretsInText } from "./secrets";
import type { StackIdentity } from "./stack-identity";
import type { AppliedAgent, UpResult } from "./up-events";

const MAX_ERROR_LENGTH = 2_000;
/** The line that starts the applied part; a later `up` replaces everything above the previous comment's preview. */
const PREVIEW_FOLD = "<details><summary>The preview reviewed in this pull request</summary>";

const OP_LABELS: Record<string, string> = { create: "created", update: "updated", delete: "deleted", replace: "replaced", same: "unchanged" };

function deploymentCell(agent: AppliedAgent): string {
  if (agent.deploymentBefore && agent.deploymentAfter && agent.deploymentBefore !== agent.deploymentAfter) {
    return `${inlineCode(agent.deploymentBefore)} → ${inlineCode(agent.deploymentAfter)}`;
  }
  const id = agent.deploymentAfter ?? agent.deploymentBefore;
  return id ? inlineCode(id) : "—";
}

function errorBlock(message: string): string {
  const masked = maskSecretsInText(message);
  return codeBlock(masked.length > MAX_ERROR_LENGTH ? `${masked.slice(0, MAX_ERROR_LENGTH)}…` : masked);
}

/** The earlier comment's body without its marker and without an applied part an earlier `up` put there. */
function previousPreview(previous: string): string {
  let body = previous.replace(/\r\n/g, "\n");
  const fold = body.indexOf(PREVIEW_FOLD);
  if (fold !== -1) {
    body = body.slice(fold + PREVIEW_FOLD.length);
    const end = body.lastIndexOf("</details>");
    if (end !== -1) body = body.slice(0, end);
  }
  const lines = body.split("\n");
  if (MARKER_PATTERN.test(lines[0]?.trim() ?? "")) lines.shift();
  return lines.join("\n").trim();
}

export function renderUp(result: UpResult, identity: StackIdentity, previous?: string): string {
  const failedAgents = result.agents.filter((a) => a.errors.length > 0);
  const counts = Object.entries(result.changeSummary)
    .filter(([, n]) => n > 0)
    .map(([op, n]) => `**${n}** ${OP_LABELS[op] ?? inlineCode(op)}`)
    .join(" · ");
  const lines = [
    commentMarker("review", identity.project, identity.stack),
    `## Agent Hosting update ${result.failed ? "failed" : "applied"}: stack ${inlineCode(identity.stack)}`,
    "",
    `Project ${inlineCode(identity.project)}: ${counts || "no resource operations"}`,
  ];
  for (const agent of failedAgents) {
    lines.push("", "> [!CAUTION]", `> **Failed:** ${inlineCode(agent.resource)} (${agent.op}). The engine's error:`, "", errorBlock(agent.errors.join("\n")));
  }
  const applied = result.agents.filter((a) => a.errors.length === 0);
  lines.push("", "### Agents");
  if (applied.length === 0 && failedAgents.length === 0) lines.push("", "No Agent changed.");
  if (applied.length > 0) {
    lines.push("", "| Agent | done | deployment |", "|---|---|---|");
    for (const agent of applied) {
      lines.push(`| ${inlineCode(agent.resource)}${agent.provider === "native" ? " _(native)_" : ""} | ${OP_LABELS[agent.op] ?? agent.op} | ${deploymentCell(agent)} |`);
    }
  }
  if (result.errors.length > 0) {
    lines.push("", "### Errors");
    for (const message of result.errors) lines.push("", errorBlock(message));
  }
  let markdown = `${lines.join("\n")}\n`;
  if (previous !== undefined && previous.trim() !== "") {
    const room = GITHUB_COMMENT_LIMIT - markdown.length - PREVIEW_FOLD.length - 1_200;
    let body = previousPreview(previous);
    if (body.length > room) body = `${body.slice(0, Math.max(0, room))}\n\n_… the rest of the preview is cut, to stay under GitHub's comment limit._`;
    markdown += `\n${PREVIEW_FOLD}\n\n${body}\n\n</details>\n`;
  }
  return markdown;
}
