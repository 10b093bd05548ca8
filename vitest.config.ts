import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/e2e/support/global-setup.ts"],
    // End-to-end tests drive the real CLI several times per test; on a busy 2-core machine that takes minutes.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // The e2e tier drives the real pulumi CLI; run files one at a time there to keep a 2-core machine calm.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
