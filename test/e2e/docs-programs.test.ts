/**
 * The registry's pages in docs/ (test/e2e/support/program-blocks.ts runs the
 * programs): every program block of docs/_index.md runs as written against
 * the emulator on a new stack, preview, up, destroy, one in each of
 * TypeScript, Python, Go, Java and YAML, fenced as the registry fences them.
 * docs/installation-configuration.md shows commands only, and names every
 * setting with its config key and environment variable.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDER_SETTINGS } from "../../src/core/settings";
import { repoRoot } from "../languages/support/drivers";
import { codeBlocks } from "../support/readme-blocks";
import { describeProgramBlocks, PROGRAM_LANGS, SHELL_LANGS } from "./support/program-blocks";

const index = join(repoRoot, "docs/_index.md");
const installation = join(repoRoot, "docs/installation-configuration.md");
const blocks = codeBlocks(index);
const programs = blocks.filter((b) => PROGRAM_LANGS.has(b.lang));

/** The front matter's fields (`key: value` lines between the opening and closing `---`). */
function frontMatter(file: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(file, "utf8"));
  expect(match, `${file} opens with front matter`).not.toBeNull();
  return Object.fromEntries((match?.[1] ?? "").split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
}

describe("docs/ in the Pulumi registry's layout", () => {
  it("each page has the registry's front matter: title, meta_desc, layout package", () => {
    for (const file of [index, installation]) {
      const fields = frontMatter(file);
      expect(fields["title"], file).toBeTruthy();
      expect(fields["meta_desc"], file).toBeTruthy();
      expect(fields["layout"], file).toBe("package");
    }
  });

  it("_index.md has one program in each language, fenced as the registry fences them, and nothing else", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["typescript", "python", "go", "java", "yaml"]);
    expect(readFileSync(index, "utf8")).toContain('{{< chooser language "typescript,python,go,java,yaml" >}}');
  });

  it("installation-configuration.md shows commands only, and every setting with its config key and environment variable", () => {
    const langs = codeBlocks(installation).map((b) => b.lang);
    expect(langs.length).toBeGreaterThan(0);
    for (const lang of langs) expect(SHELL_LANGS.has(lang), lang).toBe(true);
    const text = readFileSync(installation, "utf8");
    for (const setting of PROVIDER_SETTINGS) {
      const row = text.split("\n").find((line) => line.startsWith("| ") && line.includes(`\`${setting.configKey}\``));
      expect(row, setting.configKey).toBeDefined();
      expect(row).toContain(`\`${setting.env}\``);
    }
  });
});

describeProgramBlocks("docs/_index.md", programs);
