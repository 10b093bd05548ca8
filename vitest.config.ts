import { defineConfig } from "vitest/config";
import { HeaviestFirstSequencer } from "./test/support/heaviest-first-sequencer";

// Three projects with their own timeouts: unit tests never talk to a real
// service or CLI, so a unit test that slipped into real retry waits fails at
// 10 s instead of passing slowly under the end-to-end timeout.
export default defineConfig({
  test: {
    // The JSON report feeds .ci/run's closing "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
    // Image pinning is on by default, but the tests' images (registry.example.com/...) are in no registry:
    // every test, and every stack and program a test starts, runs with it off unless it says otherwise
    // (test/e2e/image-digests*.test.ts set agent-hosting:pinImageDigests, which wins over this variable).
    env: { AGENT_HOSTING_PIN_IMAGE_DIGESTS: "false" },
    // Four files at a time on a 2-core machine: an e2e file drives the CLI, a provider process and an
    // emulator, and spends part of its time waiting on them (readiness, health watches, drains). With two
    // files at a time the CPU stood idle a quarter of the time; with three, 6 % of a whole run (the set-up
    // before vitest, and stretches in which all three files waited at once); with four, 2 %.
    fileParallelism: true,
    maxWorkers: 4,
    // The longest end-to-end files start first, so the run's tail is the short files (test/support/heaviest-first-sequencer.ts).
    sequence: { sequencer: HeaviestFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 10_000, hookTimeout: 10_000 },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          // The reading matrix (test/integration/matrix-*.test.ts) runs its cases side by side: they wait on
          // readiness and health watches, not on the CPU.
          maxConcurrency: 16,
          // The package's dist/ link and the pulumi CLI, provided once before any file runs.
          globalSetup: ["test/e2e/support/global-setup.ts"],
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          // test/languages drives the native plugin from Go, Python and TypeScript programs under the real engine.
          include: ["test/e2e/**/*.test.ts", "test/languages/**/*.test.ts"],
          globalSetup: ["test/e2e/support/global-setup.ts"],
          // End-to-end tests drive the real CLI several times per test; on a busy 2-core machine that takes minutes.
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
