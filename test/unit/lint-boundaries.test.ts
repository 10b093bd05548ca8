/**
 * The import direction of src, as eslint.config.mjs holds it: each case
 * lints one import at a path inside src (the file need not exist) with the
 * repository's own config, the way `npm run lint` does, and names the rule
 * that answers.
 */
import { resolve } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** The rules that fail `source` written at `path` (from the repository's root). */
async function failingRules(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: resolve(root, path) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

const importing = (specifier: string) => `import * as imported from "${specifier}";\nexport const kept = imported;\n`;

// The first lint loads the config and its plugins, which on a busy machine takes longer than a unit test is given.
describe("eslint.config.mjs: the direction hosts -> registry -> resources and functions -> core -> client", { timeout: 60_000 }, () => {
  it.each([
    ["the client imports nothing of the package", "src/client/wrong.ts", "../core/settings"],
    ["the client imports no resource", "src/client/wrong.ts", "../resources/agent/fields"],
    ["core imports no resource", "src/core/wrong.ts", "../resources/agent/fields"],
    ["core imports no host", "src/core/wrong.ts", "../hosts/grpc/grpc-server"],
    ["a resource imports no host", "src/resources/agent/wrong.ts", "../../hosts/grpc/grpc-server"],
    ["a resource imports no registry", "src/resources/agent/wrong.ts", "../../registry"],
    ["a function imports no host", "src/functions/wrong.ts", "../hosts/dynamic/dynamic-host"],
    ["a function imports no registry", "src/functions/wrong.ts", "../registry"],
    ["the emulator imports no client module but its answer types", "src/emulator/wrong.ts", "../client/errors"],
    ["the emulator imports no provider", "src/emulator/wrong.ts", "../core/settings"],
    ["a host imports no emulator", "src/hosts/grpc/wrong.ts", "../../emulator/help"],
    ["the registry imports no host", "src/wrong.ts", "./hosts/grpc/grpc-server"],
  ])("%s", async (_case, path, specifier) => {
    expect(await failingRules(path, importing(specifier))).toEqual(["boundaries/dependencies"]);
  });

  it("the emulator imports no package", async () => {
    expect(await failingRules("src/emulator/wrong.ts", importing("undici"))).toEqual(["no-restricted-imports"]);
  });

  it.each([
    ["the emulator reads the client's answer types", "src/emulator/right.ts", "../client/answer-types"],
    ["the emulator reads node's built-ins", "src/emulator/right.ts", "node:http"],
    ["core reads the client", "src/core/right.ts", "../client/errors"],
    ["a resource reads core and the client", "src/resources/agent/right.ts", "../../core/settings"],
    ["a host reads the registry", "src/hosts/grpc/right.ts", "../../registry"],
    ["the registry reads the resources", "src/registry.ts", "./resources/agent/entry"],
  ])("%s", async (_case, path, specifier) => {
    expect(await failingRules(path, importing(specifier))).toEqual([]);
  });
});
