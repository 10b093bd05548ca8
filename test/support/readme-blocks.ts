/** The fenced code blocks of a Markdown file (the README, docs/_index.md), with their language, first line number and section. */
import { readFileSync } from "node:fs";

export interface CodeBlock {
  lang: string;
  code: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** The text of the nearest `## ` heading above the block ("" before the first). */
  section: string;
}

export function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  let section = "";
  let open: { lang: string; line: number; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (!fence) {
      if (open) open.body.push(text);
      else if (text.startsWith("## ")) section = text.slice(3).trim();
      return;
    }
    if (open) {
      blocks.push({ lang: open.lang, code: `${open.body.join("\n")}\n`, line: open.line, section });
      open = undefined;
    } else {
      open = { lang: fence[1] ?? "", line: index + 1, body: [] };
    }
  });
  return blocks;
}
