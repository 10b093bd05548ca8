/**
 * The frame of every comment the bin writes: a first-line marker naming the
 * project and the stack (so a pipeline finds and updates its own comment, one
 * per stack), and a collapsible `<details>` block that is cut from the front
 * to keep the whole comment under GitHub's limit.
 */
import { codeBlock } from "./markdown-text";

/** GitHub refuses an issue or pull-request comment longer than this. */
export const GITHUB_COMMENT_LIMIT = 65_536;
/** Room kept free under the limit for what a pipeline adds around the text. */
const PIPELINE_MARGIN = 1_000;

export type CommentKind = "review" | "drift";

/** A name as it may stand inside an HTML comment: no `--`, no `>`, no spaces. */
function markerName(name: string): string {
  return name.replace(/[^A-Za-z0-9._/@-]/g, "_").replace(/-{2,}/g, "-");
}

/**
 * The first line of a comment: `<!-- agent-hosting-review project=P stack=S -->`
 * (`agent-hosting-drift` for the drift report). The pipeline finds its earlier
 * comment by this whole line, so two stacks in one pull request keep two comments.
 */
export function commentMarker(kind: CommentKind, project: string, stack: string): string {
  return `<!-- agent-hosting-${kind} project=${markerName(project)} stack=${markerName(stack)} -->`;
}

/** Matches any marker this bin writes, with its project and stack. */
export const MARKER_PATTERN = /^<!-- agent-hosting-(review|drift) project=(\S+) stack=(\S+) -->$/;

/**
 * `<details>` holding `text` in a code block after `body`, with as much of
 * the text's end as fits under GitHub's limit; what is cut from its front
 * is counted in the first line. Returns `body` plus the block.
 */
export function withDetails(body: string, summary: string, text: string): string {
  const open = `\n<details><summary>${summary}</summary>\n\n`;
  const close = "\n\n</details>\n";
  const frame = body.length + open.length + close.length + PIPELINE_MARGIN + 200;
  const room = Math.max(0, GITHUB_COMMENT_LIMIT - frame);
  let shown = text;
  if (text.length > room) {
    const kept = text.slice(text.length - room);
    // Start at a whole line.
    const cut = kept.indexOf("\n") === -1 ? kept : kept.slice(kept.indexOf("\n") + 1);
    shown = `… ${text.length - cut.length} characters cut from the front, to stay under GitHub's comment limit …\n${cut}`;
  }
  return `${body.endsWith("\n") ? body : `${body}\n`}${open}${codeBlock(shown)}${close}`;
}
