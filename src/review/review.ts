/** From the text of `pulumi preview --json` to the review: its Markdown and the Agents a pipeline refuses. */
import { agentChanges, type AgentChange } from "./agent-changes";
import type { FailOnOperation } from "./flags";
import { blockedAgents, renderReview } from "./markdown";
import { parsePreview } from "./preview";

export interface Review {
  markdown: string;
  agents: AgentChange[];
  /** Agents planned for an operation of `failOn`. */
  blocked: AgentChange[];
}

/** Throws PreviewFormatError when the text is not a preview document. */
export function reviewPreview(text: string, failOn: readonly FailOnOperation[] = []): Review {
  const digest = parsePreview(text);
  const agents = agentChanges(digest);
  return { markdown: renderReview(digest, agents, { failOn }), agents, blocked: blockedAgents(agents, failOn) };
}
