import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "**/node_modules/**", "examples/**/node_modules/**", "bench/results.json"] },
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
);
