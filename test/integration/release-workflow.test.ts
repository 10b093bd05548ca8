/**
 * .github/workflows/release.yml, read as GitHub reads it: the commands it
 * runs are checked against the real script (`npm run release` and the
 * directory it writes), the real names of the release's files, the Go
 * module's tag prefix, the Java SDK's Maven repository, and npm's, gpg's
 * and curl's own flags, so renaming any of them fails here.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CHECKSUMS_FILE, MAVEN_DIR, npmTarballName, PLUGIN_TARGETS, pluginTarballName, RELEASE_DIR, releaseVersion, sdistName, wheelName, mavenArtifactPaths } from "../support/project-scripts";
import { GO_MODULE } from "../../src/hosts/grpc/package-schema";
import { REPOSITORY } from "../../src/core/plugin-download-url";
import { shellCommands, type ShellCommand } from "./support/shell-commands";

const root = resolve(__dirname, "../..");

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
  "working-directory"?: string;
}
interface Workflow {
  on: { push?: { tags?: string[]; branches?: string[] } };
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>;
}

const workflow = parse(readFileSync(join(root, ".github/workflows/release.yml"), "utf8")) as Workflow;
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string>; engines: { node: string } };
const version = releaseVersion();
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const commands = steps.flatMap((step) => (step.run ? shellCommands(step.run) : []));
/** A command's words with $VERSION as the tag of this version sets it. */
const words = (command: ShellCommand | undefined) => (command?.words ?? []).map((w) => w.replaceAll("$VERSION", version));
const find = (...start: string[]) => commands.find((c) => start.every((w, i) => c.words[i] === w));
const indexOf = (...start: string[]) => commands.findIndex((c) => start.every((w, i) => c.words[i] === w));
const inRelease = (name: string) => `${RELEASE_DIR}/${name}`;

describe("the release workflow", () => {
  it("runs on a tag v<version> only, and checks that the tag names package.json's version", () => {
    expect(workflow.on).toEqual({ push: { tags: ["v*"] } });
    const check = steps.find((s) => s.run?.includes('VERSION="${GITHUB_REF_NAME#v}"'));
    expect(shellCommands(check?.run ?? "").map((c) => c.words.join(" "))).toEqual([
      "VERSION=${GITHUB_REF_NAME#v}",
      `PACKAGE_VERSION=$(node -p 'require("./package.json").version')`,
      "test $VERSION = $PACKAGE_VERSION",
      "echo VERSION=$VERSION",
    ]);
  });

  it("installs with npm ci and writes the release with the real `npm run release`", () => {
    expect(indexOf("npm", "ci")).toBeGreaterThan(-1);
    expect(indexOf("npm", "run", "release")).toBeGreaterThan(indexOf("npm", "ci"));
    const script = packageJson.scripts["release"] ?? "";
    expect(script).toBe("node scripts/release.mjs");
    expect(existsSync(join(root, script.split(" ")[1] as string))).toBe(true);
    expect(steps.find((s) => s.uses?.startsWith("actions/setup-node"))?.with?.["node-version"]).toBe(20);
    // The release builds on a Node line the package declares (and the compatibility matrix tests).
    expect(packageJson.engines.node.split("||").map((range) => range.trim())).toContain("^20");
    const goVersionFile = steps.find((s) => s.uses?.startsWith("actions/setup-go"))?.with?.["go-version-file"];
    expect(existsSync(join(root, String(goVersionFile)))).toBe(true);
  });

  it(`checks every file against ${CHECKSUMS_FILE} in ${RELEASE_DIR}/ before publishing any`, () => {
    const step = steps.find((s) => s.run?.includes("sha256sum"));
    expect(step?.["working-directory"]).toBe(RELEASE_DIR);
    expect(shellCommands(step?.run ?? "")[0]?.words).toEqual(["sha256sum", "-c", CHECKSUMS_FILE]);
    const checked = steps.indexOf(step as Step);
    const firstPublish = steps.findIndex(
      (s) => s.run?.includes("gh release") || s.uses?.includes("pypi") || s.run?.includes("npm publish") || s.run?.includes("central.sonatype.com"),
    );
    expect(checked).toBeLessThan(firstPublish);
  });

  it("puts every plugin tarball and the checksums on the GitHub release of the tag", () => {
    const release = words(find("gh", "release", "create"));
    expect(release[3]).toBe("$GITHUB_REF_NAME");
    expect(release).toContain("--verify-tag");
    const files = release.filter((w) => w.startsWith(`${RELEASE_DIR}/`));
    expect(files.sort()).toEqual([...PLUGIN_TARGETS.map((t) => inRelease(pluginTarballName(version, t))), inRelease(CHECKSUMS_FILE)].sort());
    expect(workflow.jobs["release"]?.permissions?.["contents"]).toBe("write");
  });

  it("tags the Go SDK's module directory sdk/go/v<version> at the released commit and pushes the tag", () => {
    expect(GO_MODULE).toBe(`github.com/${REPOSITORY}/sdk/go`);
    expect(find("git", "tag")?.words).toEqual(["git", "tag", "sdk/go/$GITHUB_REF_NAME", "$GITHUB_SHA"]);
    expect(find("git", "push")?.words).toEqual(["git", "push", "origin", "sdk/go/$GITHUB_REF_NAME"]);
  });

  it("publishes the wheel and the sdist, alone in their directory, to PyPI", () => {
    const copy = words(find("cp"));
    const destination = copy.at(-1) as string;
    expect(copy.slice(1, -1).sort()).toEqual([inRelease(wheelName(version)), inRelease(sdistName(version))].sort());
    const publish = steps.find((s) => s.uses?.startsWith("pypa/gh-action-pypi-publish"));
    expect(publish?.with?.["packages-dir"]).toBe(destination);
    expect(workflow.jobs["release"]?.permissions?.["id-token"]).toBe("write");
  });

  it("publishes the npm tarball with flags npm has", () => {
    const publish = words(find("npm", "publish"));
    expect(publish[2]).toBe(inRelease(npmTarballName(version)));
    const help = execFileSync("npm", ["publish", "--help"], { encoding: "utf8" });
    for (const flag of publish.filter((w) => w.startsWith("--"))) expect(help, flag).toContain(flag);
    expect(steps.find((s) => s.run?.includes("npm publish"))?.env?.["NODE_AUTH_TOKEN"]).toBe("${{ secrets.NPM_TOKEN }}");
  });

  it("has a JDK for the Maven build of `npm run release`", () => {
    const java = steps.findIndex((s) => s.uses?.startsWith("actions/setup-java"));
    expect(java).toBeGreaterThan(-1);
    expect(Number(steps[java]?.with?.["java-version"])).toBeGreaterThanOrEqual(11);
    expect(java).toBeLessThan(steps.findIndex((s) => s.run?.includes("npm run release")));
  });

  it("signs the Java SDK's jars and pom in the release's Maven repository and uploads them as one bundle to Maven Central", () => {
    const step = steps.find((s) => s.run?.includes("central.sonatype.com"));
    expect(step?.["working-directory"]).toBe(`${RELEASE_DIR}/${MAVEN_DIR}`);
    const run = shellCommands(step?.run ?? "");
    const paths = mavenArtifactPaths(version);
    const signed = run.filter((c) => c.words[0] === "gpg" && c.words.includes("--detach-sign")).map((c) => words(c).at(-1));
    expect(signed.sort()).toEqual([paths.jar, paths.sources, paths.javadoc, paths.pom].sort());
    const gpgHelp = execFileSync("gpg", ["--dump-options"], { encoding: "utf8" }).split("\n");
    for (const flag of run.filter((c) => c.words[0] === "gpg").flatMap((c) => c.words.filter((w) => w.startsWith("--")))) expect(gpgHelp, flag).toContain(flag);
    // The bundle holds the repository's top directory, so each file keeps its path under the group.
    const zip = run.find((c) => c.words[0] === "zip")?.words ?? [];
    expect(zip.at(-1)).toBe(paths.dir.split("/")[0]);
    const bundle = zip.at(-2) as string;
    const curl = words(run.find((c) => c.words[0] === "curl"));
    expect(curl).toContain(`bundle=@${bundle}`);
    const url = new URL(curl.at(-1) as string);
    expect(`${url.origin}${url.pathname}`).toBe("https://central.sonatype.com/api/v1/publisher/upload");
    expect(url.searchParams.get("publishingType")).toBe("AUTOMATIC");
    expect(curl).toContain("Authorization: Bearer $TOKEN");
    const curlHelp = execFileSync("curl", ["--help", "all"], { encoding: "utf8" });
    for (const flag of curl.filter((w) => w.startsWith("--"))) expect(curlHelp, flag).toContain(flag);
    for (const secret of ["MAVEN_GPG_PRIVATE_KEY", "MAVEN_GPG_PASSPHRASE", "MAVEN_CENTRAL_USERNAME", "MAVEN_CENTRAL_PASSWORD"]) {
      expect(step?.env?.[secret]).toBe(`\${{ secrets.${secret} }}`);
    }
  });
});
