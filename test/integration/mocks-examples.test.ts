/**
 * Each example's unit test under the package's mocks, run from a copy of the
 * example outside the repository with its own command, as a user runs it:
 * `npm test` (vitest) for examples/typescript and examples/typescript-native, pytest for
 * examples/python, `go test ./...` for examples/go. The copies use this
 * checkout's package and SDKs: the repository's node_modules (where
 * pulumi-agent-hosting is this checkout), a virtualenv with sdk/python
 * installed, and a `replace` of the Go SDK module by sdk/go.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cachedVenv, cacheRoot, goBinary, sourceHash } from "../support/project-scripts";

const repoRoot = join(__dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "agent-hosting-example-tests-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of examples/<name> outside the repository. */
function copied(name: string): string {
  const dir = join(work, name);
  cpSync(join(repoRoot, "examples", name), dir, { recursive: true });
  return dir;
}

/** A virtualenv with pulumi, pytest and sdk/python (installed from a copy: pip would write build files into sdk/python). */
function pythonWithSdk(): string {
  const dir = join(cacheRoot, "mocks-python", sourceHash([join(repoRoot, "sdk/python")]));
  return cachedVenv(dir, "mocks-python", (python: string) => {
    const copy = join(work, "sdk-python");
    cpSync(join(repoRoot, "sdk/python"), copy, { recursive: true });
    execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "pulumi==3.259.0", "pytest==9.2.0", copy], { stdio: "inherit" });
  });
}

describe("the examples' unit tests, as users run them", () => {
  it("examples/typescript: npm test (the package root's functions answer from the mocks too)", () => {
    const dir = copied("typescript");
    symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"));
    const out = execFileSync("npm", ["test"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(out).toMatch(/Tests\s+2 passed \(2\)/);
  });

  it("examples/typescript-native: npm test", () => {
    const dir = copied("typescript-native");
    symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"));
    const out = execFileSync("npm", ["test"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(out).toMatch(/Tests\s+3 passed \(3\)/);
  });

  it("examples/python: pytest", () => {
    const dir = copied("python");
    const out = execFileSync(pythonWithSdk(), ["-m", "pytest", "-q", "-p", "no:cacheprovider"], { cwd: dir, encoding: "utf8" });
    expect(out).toMatch(/5 passed/);
  });

  it("examples/go: go test ./...", () => {
    const dir = copied("go");
    appendFileSync(join(dir, "go.mod"), `\nreplace github.com/agent-hosting/pulumi-agent-hosting/sdk/go => ${join(repoRoot, "sdk/go")}\n`);
    const env = { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off" };
    execFileSync(goBinary(), ["mod", "tidy"], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
    const out = execFileSync(goBinary(), ["test", "-v", "./..."], { cwd: dir, env, encoding: "utf8" });
    expect(out.match(/^--- PASS/gm)).toHaveLength(2);
    expect(out).not.toMatch(/^--- FAIL/m);
  });
});
