import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The JSON report feeds .ci/run's closing "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
    globalSetup: ["test/e2e/support/global-setup.ts"],
    // End-to-end tests drive the real CLI several times per test; on a busy 2-core machine that takes minutes.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // Two files at a time: each e2e file drives the CLI, a provider process and an emulator on a 2-core machine.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
