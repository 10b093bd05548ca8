/**
 * Each example's unit test under the package's mocks, run from a copy of the
 * example outside the repository with its own command, as a user runs it:
 * `npm test` (vitest) for examples/typescript and examples/typescript-native, pytest for
 * examples/python, `go test ./...` for examples/go, `mvn test` (JUnit 5 under
 * pulumi-java 1.16's PulumiTest) for examples/java. The copies use this
 * checkout's package and SDKs: the repository's node_modules (where
 * pulumi-agent-hosting is this checkout), a virtualenv with sdk/python
 * installed, a `replace` of the Go SDK module by sdk/go, and a Maven
 * repository of sdk/java built as the release builds it, named in the pom as
 * examples/java's README shows (Maven's own repository isolated, so no other
 * copy of the SDK stands in: test/e2e/support/java-program.ts).
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isolateMaven, withRepository } from "../e2e/support/java-program";
import { cachedVenv, cacheRoot, goBinary, releaseVersion, sourceHash, writeMavenRepository } from "../support/project-scripts";

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

/** A Maven repository of sdk/java as the release builds it, once per content of sdk/java. */
function javaSdkRepository(): string {
  const dir = join(cacheRoot, "mocks-java", sourceHash([join(repoRoot, "sdk/java")]));
  if (existsSync(dir)) return dir;
  const partial = `${dir}.${process.pid}`;
  writeMavenRepository(partial, releaseVersion(), 315532802);
  if (existsSync(dir)) rmSync(partial, { recursive: true, force: true });
  else renameSync(partial, dir);
  return dir;
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
    expect(out).toMatch(/7 passed/);
  });

  it("examples/go: go test ./...", () => {
    const dir = copied("go");
    appendFileSync(join(dir, "go.mod"), `\nreplace github.com/agent-hosting/pulumi-agent-hosting/sdk/go => ${join(repoRoot, "sdk/go")}\n`);
    const env = { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off" };
    execFileSync(goBinary(), ["mod", "tidy"], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
    const out = execFileSync(goBinary(), ["test", "-v", "./..."], { cwd: dir, env, encoding: "utf8" });
    expect(out.match(/^--- PASS/gm)).toHaveLength(4);
    expect(out).not.toMatch(/^--- FAIL/m);
  });

  it("examples/java: mvn test", () => {
    const dir = copied("java");
    writeFileSync(join(dir, "pom.xml"), withRepository(readFileSync(join(dir, "pom.xml"), "utf8"), "agent-hosting-sdk", `file://${javaSdkRepository()}`));
    const maven = isolateMaven(dir, join(work, "java-maven"));
    let out: string;
    try {
      out = execFileSync("mvn", ["-B", "--no-transfer-progress", "test"], { cwd: dir, encoding: "utf8" });
    } catch (error) {
      throw new Error(`mvn test failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
    } finally {
      maven.harvest();
    }
    expect(out).toMatch(/Tests run: 3, Failures: 0, Errors: 0, Skipped: 0/);
  });
});
