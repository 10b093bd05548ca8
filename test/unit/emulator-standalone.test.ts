/**
 * The emulator is a reading of the service document of its own: its source
 * imports node built-ins, its own modules and the shared model of the
 * service's answer (its generated declarations, src/client/answer-types.ts,
 * a type only) and nothing else of the client or the provider (whose rules it would otherwise echo).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const dir = resolve(__dirname, "../../src/emulator");
const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));

/** Every module specifier of `import ... from "x"`, `export ... from "x"` and `import("x")`. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)) found.push(match[1] as string);
  return found;
}

describe("src/emulator", () => {
  it("has source files to check", () => {
    expect(files).toContain("server.ts");
    expect(files).toContain("validation.ts");
  });

  it.each(files)("%s imports only node built-ins, src/emulator and the service's answer", (file) => {
    const outside = specifiers(readFileSync(join(dir, file), "utf8")).filter(
      (s) => !s.startsWith("node:") && !s.startsWith("./") && s !== "../client/answer-types",
    );
    expect(outside).toEqual([]);
  });
});
