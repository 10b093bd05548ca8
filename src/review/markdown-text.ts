/** Safe Markdown pieces for text that comes from a preview (names, images, messages). */
import type { PropertyValue } from "./property-value";
import { MASKED } from "./secrets";

/** Longest value shown in full; longer ones are cut with an ellipsis. */
const MAX_VALUE_LENGTH = 200;

/** An inline code span holding `text` verbatim, whatever backticks or newlines it contains. */
export function inlineCode(text: string): string {
  const flat = text.replace(/\r?\n/g, " ");
  const longestRun = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longestRun + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A fenced code block holding `text` verbatim. */
export function codeBlock(text: string): string {
  const longestRun = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longestRun + 1);
  return `${fence}\n${text}\n${fence}`;
}

function shorten(text: string): string {
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

/** One property value as the summary shows it. */
export function formatValue(value: PropertyValue): string {
  switch (value.kind) {
    case "unset":
      return "_not set_";
    case "unknown":
      return "_known after apply_";
    case "secret":
      return inlineCode(MASKED);
    case "value":
      return inlineCode(shorten(typeof value.value === "string" ? value.value : JSON.stringify(value.value)));
  }
}
