import { defineConfig } from "vitest/config";

// The campaign of `npm run campaign` (scripts/campaign.mjs): one file, one test, as long as its steps take,
// with the end-to-end tier's global setup (the pulumi CLI, the YAML host, the plugin's tarball).
export default defineConfig({
  test: {
    include: ["test/campaign/main.campaign.ts"],
    globalSetup: ["test/e2e/support/global-setup.ts"],
    // As in vitest.config.ts: the campaign's images are in no registry, so tags are sent as written.
    env: { AGENT_HOSTING_PIN_IMAGE_DIGESTS: "false" },
    testTimeout: 24 * 60 * 60 * 1000,
    hookTimeout: 600_000,
    reporters: ["default"],
  },
});
