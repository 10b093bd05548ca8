/**
 * The Markdown of a review: the stack and its operation counts, a warning per
 * Agent that a replace or delete removes, then each Agent's operation with
 * its changed properties before → after.
 */
import { agentField } from "../resources/agent/fields";
import type { AgentChange, AgentOperation } from "./agent-changes";
import { FAIL_ON_LIVE_SESSIONS } from "./flags";
import type { FailOn } from "./flags";
import { liveSessionsLines, sessionsText } from "./live-sessions";
import { codeBlock, formatValue, inlineCode } from "./markdown-text";
import type { PreviewDigest } from "./preview";
import { sameValue } from "./property-value";
import { newBuildText } from "./new-build";
import { maskSecretsInText } from "./secrets";
import { commentMarker } from "./comment";
import { safetyNetWarning } from "./safety-net";
import { stackIdentity } from "./stack-identity";
import type { StackIdentity } from "./stack-identity";
import { parseUrn } from "./urn";


const OPERATION_LABELS: Record<AgentOperation, string> = {
  create: "create",
  update: "update in place",
  replace: "replace",
  delete: "delete",
  same: "same",
  read: "read (adopted, not managed)",
  import: "import",
  other: "other",
};

const COUNT_LABELS: Record<string, string> = {
  create: "to create",
  update: "to update",
  replace: "to replace",
  delete: "to delete",
  same: "unchanged",
};
const COUNT_ORDER = ["create", "update", "replace", "delete", "same"];

/** What a reviewer should know of a provider setting, which the service never receives. */
function settingNote(name: string, operation: AgentOperation): string {
  const field = agentField(name);
  if (field?.sentTo !== "provider") return "";
  if (field.change === "update" && operation === "update") return " _(provider setting: rolls out a new deployment of the same spec)_";
  return " _(provider setting; not sent to the service)_";
}

export interface RenderOptions {
  /** Operations the pipeline refuses without approval (`--fail-on`). */
  failOn?: readonly FailOn[];
  /** The project and stack the comment names, when not those of the document's URNs. */
  identity?: Partial<StackIdentity>;
}

function countsLine(summary: Record<string, number>): string {
  const ops = Object.keys(summary).sort((a, b) => {
    const ia = COUNT_ORDER.indexOf(a);
    const ib = COUNT_ORDER.indexOf(b);
    return (ia === -1 ? Infinity : ia) - (ib === -1 ? Infinity : ib) || (a < b ? -1 : 1);
  });
  if (ops.length === 0) return "No resource operations.";
  return ops.map((op) => `**${summary[op]}** ${COUNT_LABELS[op] ?? inlineCode(op)}`).join(" · ");
}

function warning(agent: AgentChange): string[] {
  const resource = inlineCode(agent.resource);
  const sessions = agent.liveSessions ? liveSessionsLines(agent.liveSessions).map((line) => `> ${line}`) : [];
  if (agent.operation === "replace") {
    const reasons = agent.replaceReasons.length > 0 ? ` (forced by ${agent.replaceReasons.map(inlineCode).join(", ")})` : "";
    const renamed = !sameValue(agent.serviceNameBefore, agent.serviceNameAfter);
    return [
      // Live sessions cut make a replace as grave as a delete.
      sessions.length > 0 ? "> [!CAUTION]" : "> [!WARNING]",
      renamed
        ? `> **Replace** of ${resource}${reasons}: \`serviceName\` ${formatValue(agent.serviceNameBefore)} → ${formatValue(agent.serviceNameAfter)}.`
        : `> **Replace** of ${resource}${reasons}: the agent ${formatValue(agent.serviceNameBefore)} is created anew.`,
      `> The old agent ${formatValue(agent.serviceNameBefore)} is deleted, with its deployments and sessions.`,
      ...sessions,
    ];
  }
  if (agent.operation === "delete") {
    return [
      "> [!CAUTION]",
      `> **Delete** of ${resource}: the agent ${formatValue(agent.serviceNameBefore)} is deleted, with its deployments and sessions.`,
      ...sessions,
    ];
  }
  if (agent.liveSessions) {
    const [first = "", ...rest] = liveSessionsLines(agent.liveSessions);
    return ["> [!WARNING]", `> **Update** of ${resource}: ${first}`, ...rest.map((line) => `> ${line}`)];
  }
  return [];
}

/** The Agent's operation, and the live sessions it cuts: `delete, 2 live sessions`. */
export function operationLabel(agent: AgentChange): string {
  return agent.liveSessions ? `${agent.operation}, ${sessionsText(agent.liveSessions.count)}` : agent.operation;
}

function agentSection(agent: AgentChange): string[] {
  const sessions = agent.liveSessions ? ` (${sessionsText(agent.liveSessions.count)})` : "";
  const lines = [`#### ${inlineCode(agent.resource)}: ${OPERATION_LABELS[agent.operation]}${sessions}`];
  if (agent.provider === "native") lines.push("_native provider_");
  if (agent.newBuild) lines.push(`- ${newBuildText(agent.newBuild)}`);
  for (const change of agent.properties) {
    const note = change.secretUnsure
      ? " _(secret: the preview masks both values, so it may be unchanged)_"
      : settingNote(change.name, agent.operation);
    if (agent.operation === "create" || agent.operation === "import") {
      lines.push(`- ${inlineCode(change.name)}: ${formatValue(change.after)}${note}`);
    } else if (agent.operation === "delete") {
      lines.push(`- ${inlineCode(change.name)}: ${formatValue(change.before)}`);
    } else {
      lines.push(`- ${inlineCode(change.name)}: ${formatValue(change.before)} → ${formatValue(change.after)}${note}`);
    }
  }
  return lines;
}

/** Agents whose planned operation is one of `failOn`, or, with `live-sessions`, whose live sessions the change cuts. */
export function blockedAgents(agents: readonly AgentChange[], failOn: readonly FailOn[]): AgentChange[] {
  return agents.filter(
    (agent) => (failOn as readonly string[]).includes(agent.operation) || (failOn.includes(FAIL_ON_LIVE_SESSIONS) && agent.liveSessions !== undefined),
  );
}

/**
 * The longest review: GitHub refuses a comment over 65 536 characters, and a
 * pipeline may add lines of its own.
 */
export const MAX_REVIEW_LENGTH = 60_000;
/** The most Agents the approval line names; it counts the others. */
const MAX_BLOCKED_NAMED = 20;
/** The longest engine error shown; a longer one is cut. */
const MAX_ERROR_LENGTH = 2_000;

/** The whole comment: every part, unless it would pass MAX_REVIEW_LENGTH; then the last warnings and Agents are left out and counted. */
export function renderReview(digest: PreviewDigest, agents: readonly AgentChange[], options: RenderOptions = {}): string {
  const { project, stack } = stackIdentity(digest.steps, options.identity);
  const head = [
    commentMarker("review", project, stack),
    `## Agent Hosting preview: stack ${inlineCode(stack)}`,
    "",
    `Project ${inlineCode(project)}: ${countsLine(digest.changeSummary)}`,
  ];

  const tail: string[] = [];
  // Without --show-sames the engine counts unchanged resources but lists none of them (the stack itself aside).
  const listsSames = digest.steps.some((step) => step.op === "same" && parseUrn(step.urn)?.type !== "pulumi:pulumi:Stack");
  if ((digest.changeSummary["same"] ?? 0) > 0 && !listsSames) {
    tail.push("", "_The preview ran without `--show-sames`, so any unchanged Agents are not listed._");
  }
  const errors = digest.diagnostics.filter((d) => d.severity === "error" && d.message);
  if (errors.length > 0) {
    tail.push("", "### Preview errors");
    for (const error of errors) {
      const message = maskSecretsInText(error.message ?? "").trimEnd();
      tail.push("", codeBlock(message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH)}…` : message));
    }
  }
  const blocked = blockedAgents(agents, options.failOn ?? []);
  if (blocked.length > 0) {
    const named = blocked.slice(0, MAX_BLOCKED_NAMED).map((agent) => `${inlineCode(agent.resource)} (${operationLabel(agent)})`);
    const more = blocked.length > MAX_BLOCKED_NAMED ? ` and ${blocked.length - MAX_BLOCKED_NAMED} more` : "";
    const list = named.join(", ") + more;
    tail.push("", `**Approval required:** ${list}; \`--fail-on ${(options.failOn ?? []).join(",")}\` refuses it.`);
  }

  const same = agents.filter((agent) => agent.operation === "same");
  const sameLine = same.length > 0 ? ["", `Same (no change): ${same.map((agent) => inlineCode(agent.resource)).join(", ")}`] : [];
  // One quote block per warning, separated by blank lines so they do not merge.
  const warnings = agents
    .flatMap((agent) => [warning(agent), safetyNetWarning(agent)])
    .filter((block) => block.length > 0)
    .map((block) => ["", ...block]);
  const sections = agents.filter((agent) => agent.operation !== "same").map((agent) => ["", ...agentSection(agent)]);
  const agentsHeading = ["", "### Agents", ...(agents.length === 0 ? ["", "No Agent in this preview."] : [])];

  const size = (lines: readonly string[]) => lines.reduce((sum, line) => sum + line.length + 1, 0);
  // Room for the note that counts what is left out.
  const NOTE_ROOM = 300;
  let budget = MAX_REVIEW_LENGTH - size(head) - size(agentsHeading) - size(tail) - NOTE_ROOM;
  const fit = (blocks: string[][]) => {
    const kept: string[][] = [];
    for (const block of blocks) {
      if (size(block) > budget) break;
      kept.push(block);
      budget -= size(block);
    }
    return kept;
  };
  const keptWarnings = fit(warnings);
  const keptSections = keptWarnings.length === warnings.length ? fit(sections) : [];
  const keptSame = keptSections.length === sections.length ? (fit([sameLine])[0] ?? []) : [];
  const hiddenWarnings = warnings.length - keptWarnings.length;
  const hiddenAgents = sections.length - keptSections.length;
  const hiddenSame = keptSame.length < sameLine.length;
  const note =
    hiddenWarnings > 0 || hiddenAgents > 0 || hiddenSame
      ? [
          "",
          `_Not shown, to stay under GitHub's size limit for a comment: ${hiddenWarnings} warnings, ${hiddenAgents} Agents` +
            `${hiddenSame ? " and the list of unchanged Agents" : ""}. Run \`agent-hosting-review\` on the preview to see all._`,
        ]
      : [];
  const lines = [...head, ...keptWarnings.flat(), ...agentsHeading, ...keptSections.flat(), ...keptSame, ...note, ...tail];
  return `${lines.join("\n")}\n`;
}
