import js from "@eslint/js";
import boundaries from "eslint-plugin-boundaries";
import tseslint from "typescript-eslint";

/**
 * What each folder of src (and each file at its root) may import besides its
 * own files: hosts -> registry -> resources and functions -> core -> client,
 * with the emulator beside them, reading only the client's answer types.
 * A name ending in .ts is one file, from src.
 */
export const SRC_IMPORTS = {
  client: [],
  core: ["client"],
  emulator: ["client/answer-types.ts"],
  "image-registry": ["client", "core"],
  resources: ["core", "client", "image-registry"],
  functions: ["core", "client", "image-registry"],
  "registry.ts": ["resources", "functions", "core", "client"],
  hosts: ["registry.ts", "resources", "functions", "core", "client", "image-registry"],
  native: ["resources", "functions", "core", "client"],
  review: ["resources", "core", "client"],
  policy: ["resources", "core", "client", "image-registry"],
  testing: ["registry.ts", "resources", "functions", "core", "client", "emulator", "image-registry"],
  "index.ts": ["resources", "functions", "core", "client", "emulator"],
};
const part = (name) => (name.endsWith(".ts") ? { file: { path: `src/${name}` } } : { element: { type: name } });

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "**/node_modules/**", ".e2e-work/**", "bench/results.json"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly", console: "readonly", Buffer: "readonly", setTimeout: "readonly",
        clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", URL: "readonly",
        URLSearchParams: "readonly", fetch: "readonly", AbortController: "readonly", require: "readonly",
        __dirname: "readonly", module: "writable", structuredClone: "readonly", performance: "readonly",
        setImmediate: "readonly", AbortSignal: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Published declarations keep an inline `type` modifier as written, and TypeScript 3.8 (the engine's, for
    // projects without a typescript of their own) cannot parse it: type-only names go in `import type` / `export type`.
    files: ["src/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "ImportSpecifier[importKind='type']", message: "write `import type { ... }` on its own line: TypeScript 3.8 cannot read an inline type modifier in a published declaration" },
        { selector: "ExportSpecifier[exportKind='type']", message: "write `export type { ... }` on its own line: TypeScript 3.8 cannot read an inline type modifier in a published declaration" },
      ],
    },
  },
  {
    files: ["src/**/*.ts"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { node: { extensions: [".ts", ".js"] } },
      "boundaries/elements": Object.keys(SRC_IMPORTS)
        .filter((name) => !name.endsWith(".ts"))
        .map((folder) => ({ type: folder, pattern: `src/${folder}` })),
      "boundaries/files": [{ category: "src-root", pattern: "src/*.ts" }],
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          policies: Object.entries(SRC_IMPORTS).map(([name, allowed]) => ({
            from: part(name),
            allow: { to: [part(name), ...allowed.map(part)] },
          })),
        },
      ],
    },
  },
  {
    // The emulator is a reading of the service document of its own: beside its files and the client's answer
    // types (the rule above), it imports node's built-ins and no package, so it runs wherever node does.
    files: ["src/emulator/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(?!node:|\\.)", message: "the emulator imports node built-ins (node:...) and no package" }] }],
    },
  },
  {
    // Pulumi programs in CommonJS, loaded the way a user's program is.
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
