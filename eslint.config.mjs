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
    // Pulumi programs in CommonJS, loaded the way a user's program is.
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
