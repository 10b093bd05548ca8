/** The example programs that schema.json's descriptions carry, read back from the `{{% examples %}}` sections. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface SchemaExampleProgram {
  /** The resource's or function's token. */
  token: string;
  /** The `### ` title of its `{{% example %}}`. */
  title: string;
  language: string;
  code: string;
}

/** Every program of every `{{% example %}}` of a description, in order. */
export function examplesOf(token: string, description: string): SchemaExampleProgram[] {
  const section = /\{\{% examples %\}\}([\s\S]*?)\{\{% \/examples %\}\}/.exec(description)?.[1] ?? "";
  return [...section.matchAll(/\{\{% example %\}\}\n### (.+)\n([\s\S]*?)\{\{% \/example %\}\}/g)].flatMap(([, title, body]) =>
    [...(body ?? "").matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map(([, language, code]) => ({ token, title: title ?? "", language: language ?? "", code: code ?? "" })),
  );
}

/** The example programs of schema.json's resources and functions. */
export function schemaExamplePrograms(repoRoot: string): SchemaExampleProgram[] {
  const schema = JSON.parse(readFileSync(join(repoRoot, "schema.json"), "utf8")) as Record<string, Record<string, { description?: string }>>;
  return [...Object.entries(schema["resources"] ?? {}), ...Object.entries(schema["functions"] ?? {})].flatMap(([token, spec]) =>
    examplesOf(token, spec.description ?? ""),
  );
}
