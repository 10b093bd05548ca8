import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
    // Pulumi programs in CommonJS, loaded the way a user's program is.
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
