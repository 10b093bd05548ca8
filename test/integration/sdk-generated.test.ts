/**
 * sdk/python, sdk/go and sdk/java are what the code generators make from
 * schema.json: regenerated into a temporary directory with tools/gen-sdk
 * (Pulumi's Python and Go generators) and pulumi-java-gen with the Maven
 * build written around it (both built once and cached outside the
 * repository), and compared file by file.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SCRIPT } from "../support/project-scripts";

describe("the generated SDKs", () => {
  it("sdk/python, sdk/go and sdk/java are up to date with schema.json (run `npm run gen` after changing it)", () => {
    const out = execFileSync(process.execPath, [SCRIPT.genSdk, "--check"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(out).toMatch(/sdk\/python, sdk\/go, sdk\/java are up to date/);
  });
});
