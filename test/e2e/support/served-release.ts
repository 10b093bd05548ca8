/**
 * The set-up of the files that install from the release as users do: the
 * pulumi CLI the global setup provides and the release (built once per
 * source content, test/e2e/support/cached-release.ts) served by a loopback
 * server in place of the GitHub release, for the file. The emulator comes
 * from test/e2e/support/e2e-fixture.ts's useEmulator.
 */
import { afterAll, beforeAll } from "vitest";
import { cachedRelease } from "./cached-release";
import { serveRelease, type ReleaseServer } from "./release-server";

export interface ServedRelease {
  /** The directory holding the pulumi CLI. */
  cliDir: string;
  /** The release's directory and version. */
  dir: string;
  version: string;
  server: ReleaseServer;
}

/** The release served before the file's tests and closed after them; the returned function reads it inside a test or a hook. */
export function useServedRelease(): () => ServedRelease {
  let served: ServedRelease | undefined;
  beforeAll(async () => {
    const cliDir = process.env["AGENT_HOSTING_PULUMI_CLI_DIR"];
    if (!cliDir) throw new Error("the global setup provides the pulumi CLI (AGENT_HOSTING_PULUMI_CLI_DIR)");
    const { dir, version } = await cachedRelease();
    served = { cliDir, dir, version, server: await serveRelease(dir) };
  }, 600_000);
  afterAll(async () => {
    await served?.server.close();
  });
  return () => {
    if (!served) throw new Error("the release is served in beforeAll: read it inside a test or a hook");
    return served;
  };
}
