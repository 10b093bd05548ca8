/** The fenced code blocks of the README, with their language and first line number. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface CodeBlock {
  lang: string;
  code: string;
  /** The line of the opening fence, 1-based. */
  line: number;
}

export function readmeBlocks(repoRoot: string): CodeBlock[] {
  const lines = readFileSync(join(repoRoot, "README.md"), "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  let open: { lang: string; line: number; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (!fence) {
      open?.body.push(text);
      return;
    }
    if (open) {
      blocks.push({ lang: open.lang, code: `${open.body.join("\n")}\n`, line: open.line });
      open = undefined;
    } else {
      open = { lang: fence[1] ?? "", line: index + 1, body: [] };
    }
  });
  return blocks;
}
