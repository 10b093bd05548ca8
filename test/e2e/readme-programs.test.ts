/**
 * The README's programs run as written (test/e2e/support/program-blocks.ts):
 * every code block that is a program (TypeScript, Python, Go, YAML, Java) is taken
 * from README.md and run against the emulator on a new stack: preview, up,
 * destroy. A block that is neither shell, nor a program run here, nor a
 * fragment listed below fails the test, so a new README program cannot
 * escape it (in any language, or unlabelled). The Quickstart's program is
 * examples/typescript/index.ts, byte for byte, so the example a user copies
 * and the demo (`npm run demo`) run the same text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN_DEFAULT_API_KEY } from "../../src/emulator/args";
import { pasteText } from "../../src/emulator/help";
import { repoRoot } from "../languages/support/drivers";
import { codeBlocks, type CodeBlock } from "../support/readme-blocks";
import { describeProgramBlocks, PROGRAM_LANGS, PROGRAM_LINE, SHELL_LANGS } from "./support/program-blocks";

/** Blocks that are not whole programs, each known by a line of it, with why. */
const FRAGMENTS: { lang: string; line: string; why: string }[] = [
  { lang: "ts", line: "registry.example.com/voice-bot@sha256:", why: "one declaration showing an image pinned by digest" },
  { lang: "ts", line: "redeployTrigger: process.env.BUILD_ID", why: "one declaration showing redeployTrigger" },
  { lang: "ts", line: "const client = new AgentHostingClient(", why: "client calls outside Pulumi, not a program" },
  { lang: "ts", line: 'onFailure: "rollback", healthCheck:', why: "one declaration showing onFailure and healthCheck (test/e2e/deployment-failures.test.ts runs them)" },
];

const fragmentOf = (block: CodeBlock) => FRAGMENTS.find((f) => f.lang === block.lang && block.code.includes(f.line));

const allBlocks = codeBlocks(join(repoRoot, "README.md"));
const unclassified = allBlocks.filter((b) => !SHELL_LANGS.has(b.lang) && !PROGRAM_LANGS.has(b.lang) && fragmentOf(b) === undefined);
/** Every program block is run below: one that cannot run alone fails its own test. */
const programs = allBlocks.filter((b) => PROGRAM_LANGS.has(b.lang) && fragmentOf(b) === undefined);

describe("the README's code blocks", () => {
  it("each is shell, a program run here, or a listed fragment; each listed fragment is one block of the README and no whole program", () => {
    expect(unclassified.map((b) => `README line ${b.line}: a "${b.lang}" block is neither shell, nor a program language, nor a listed fragment`)).toEqual([]);
    expect([...new Set(programs.map((b) => b.lang))].sort()).toEqual(["go", "java", "python", "ts", "yaml"]);
    for (const fragment of FRAGMENTS) {
      const matches = allBlocks.filter((b) => b.lang === fragment.lang && b.code.includes(fragment.line));
      expect(matches.map((b) => b.line), fragment.line).toHaveLength(1);
      expect(matches[0]?.code, `a listed fragment with imports or a package clause is a program to run: ${fragment.line}`).not.toMatch(PROGRAM_LINE);
    }
  });

  it('the program of the section "Quickstart" is examples/typescript/index.ts, byte for byte, within the first 80 lines', () => {
    const example = readFileSync(join(repoRoot, "examples/typescript/index.ts"), "utf8");
    const shown = allBlocks.filter((b) => b.section === "Quickstart" && b.lang === "ts");
    expect(shown.map((b) => b.code)).toEqual([example]);
    const end = (shown[0]?.line ?? 0) + example.split("\n").length;
    expect(end).toBeLessThanOrEqual(80);
  });

  it('the emulator output shown in "Try it without an account" is what `npx agent-hosting-emulator` prints', () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("\n## Try it without an account\n"), readme.indexOf("\n## Which `Agent`\n"));
    // The indented block: the first lines of the bin's output at its default port and key.
    const shown = /\n\n((?: {4}.*\n|\n)+)/.exec(section)?.[1]?.replace(/\n+$/, "\n").replace(/^ {4}/gm, "");
    const url = "http://127.0.0.1:8787/v1";
    const printed = `agent-hosting-emulator listening on ${url}\n${pasteText(url, BIN_DEFAULT_API_KEY, [])}`;
    expect(shown).toBeDefined();
    expect(printed.startsWith(shown ?? "-"), `README shows:\n${shown}\nthe bin prints:\n${printed}`).toBe(true);
  });
});

describeProgramBlocks("README.md", programs);
