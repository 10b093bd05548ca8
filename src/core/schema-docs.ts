/**
 * The texts of the package schema that live in files of their own under
 * schema-docs/: the example programs of each resource and function, in
 * TypeScript, Python, Go, Java and YAML, which the schema's descriptions carry in
 * the Pulumi registry's `{{% examples %}}` form (and a test runs each against
 * the emulator), and the Python package's README. Read when the schema is
 * built (scripts/gen-schema.mjs), never at run time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
/** schema-docs/ at the repository's root: dist/core/ (or src/core/) is two levels down. */
export const SCHEMA_DOCS_DIR = join(__dirname, "..", "..", "schema-docs");

/**
 * Each language of an example, in the order the description lists them (the
 * Pulumi registry's order: TypeScript, Python, Go, C#, Java, YAML), with its
 * file in the example's directory.
 */
export const EXAMPLE_FILES = [
  { language: "typescript", file: "index.ts" },
  { language: "python", file: "__main__.py" },
  { language: "go", file: "main.go" },
  { language: "java", file: "App.java" },
  { language: "yaml", file: "Pulumi.yaml" },
] as const;

export interface SchemaExample {
  /** Directory under schema-docs/examples/. */
  dir: string;
  title: string;
}

/** The `{{% examples %}}` section of a description. */
export function examplesSection(examples: readonly SchemaExample[]): string {
  const blocks = examples.map((example) => {
    const code = EXAMPLE_FILES.map(({ language, file }) => {
      const text = readFileSync(join(SCHEMA_DOCS_DIR, "examples", example.dir, file), "utf8");
      return `\`\`\`${language}\n${text.endsWith("\n") ? text : `${text}\n`}\`\`\``;
    });
    return `{{% example %}}\n### ${example.title}\n\n${code.join("\n")}\n{{% /example %}}`;
  });
  return `{{% examples %}}\n## Example Usage\n${blocks.join("\n")}\n{{% /examples %}}`;
}

/** The README of the Python package (the wheel's long description). */
export function pythonReadme(): string {
  return readFileSync(join(SCHEMA_DOCS_DIR, "python-readme.md"), "utf8");
}
