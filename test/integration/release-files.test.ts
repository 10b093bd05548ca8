/**
 * What `npm run release` writes (its `writeRelease`, from the dist/ the test
 * run built), read back with the standard tools: every file of the release
 * and nothing else, the same bytes when written twice, SHA256SUMS over all
 * of them, one plugin bundle in every tarball with the launcher of its OS,
 * the wheel and sdist with the version and the plugin's download URL, the
 * npm tarball, the Go module in a module proxy's layout, and the Java SDK in
 * a Maven repository's layout.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launcher, CHECKSUMS_FILE, GOPROXY_DIR, MAVEN_DIR, npmTarballName, PLUGIN_TARGETS, pluginTarballName, releaseFileNames, sdistName, wheelName, mavenArtifactPaths, mavenRepositoryFiles, writeRelease } from "../support/project-scripts";
import { GO_MODULE } from "../../src/hosts/grpc/package-schema";
import { PLUGIN_DOWNLOAD_URL } from "../../src/core/plugin-download-url";

const root = join(__dirname, "..", "..");
let work: string;
let first: string;
let second: string;
let version: string;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
const relativeFiles = (dir: string) => filesUnder(dir).map((f) => relative(dir, f).split(sep).join("/")).sort();
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Extracts a .tar.gz with the system's tar into a new directory; returns it. */
function untar(archive: string): string {
  const dir = mkdtempSync(join(work, "untar-"));
  execFileSync("tar", ["-xzf", archive, "-C", dir]);
  return dir;
}

/** A member of a zip file (wheel, Go module), read by Python's zipfile; with no member, the list of names. */
function zipRead(archive: string, member?: string): string {
  const code = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nprint(z.read(sys.argv[2]).decode() if len(sys.argv) > 2 else '\\n'.join(z.namelist()), end='')";
  return execFileSync("python3", ["-c", code, archive, ...(member ? [member] : [])], { encoding: "utf8" });
}

beforeAll(async () => {
  if (!existsSync(join(root, "dist", "hosts", "grpc", "plugin-bin.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  work = mkdtempSync(join(tmpdir(), "agent-hosting-release-files-"));
  first = join(work, "first");
  second = join(work, "second");
  version = await writeRelease(first, () => undefined);
  // Something left in the directory is removed: the release holds only its own files.
  mkdirSync(second);
  execFileSync("touch", [join(second, "stale-file")]);
  await writeRelease(second, () => undefined);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the release files", () => {
  const goFiles = () => {
    const escaped = GO_MODULE; // lower case: escaping changes nothing
    return ["list", `v${version}.info`, `v${version}.mod`, `v${version}.zip`].map((f) => `${GOPROXY_DIR}/${escaped}/@v/${f}`);
  };

  const mavenFiles = () => mavenRepositoryFiles(version).map((f) => `${MAVEN_DIR}/${f}`);

  it("are the plugin tarballs, the wheel, the sdist, the npm tarball, the Go module proxy, the Maven repository and SHA256SUMS, and nothing else", () => {
    expect(releaseFileNames(version)).toEqual([
      ...PLUGIN_TARGETS.map((t) => pluginTarballName(version, t)),
      wheelName(version),
      sdistName(version),
      npmTarballName(version),
    ]);
    expect(relativeFiles(second)).toEqual([...releaseFileNames(version), ...goFiles(), ...mavenFiles(), CHECKSUMS_FILE].sort());
  });

  it("are the same bytes when written again", () => {
    const files = relativeFiles(first);
    expect(relativeFiles(second)).toEqual(files);
    for (const file of files) expect(sha256(join(second, file)), file).toBe(sha256(join(first, file)));
  });

  it(`${CHECKSUMS_FILE} holds the SHA-256 of every other file, as sha256sum -c reads it`, () => {
    const lines = readFileSync(join(first, CHECKSUMS_FILE), "utf8").trimEnd().split("\n");
    const expected = relativeFiles(first)
      .filter((f) => f !== CHECKSUMS_FILE)
      .map((f) => `${sha256(join(first, f))}  ${f}`);
    expect(lines).toEqual(expected);
    expect(execFileSync("sha256sum", ["-c", CHECKSUMS_FILE], { cwd: first, encoding: "utf8" })).not.toMatch(/FAILED/);
  });

  it("every plugin tarball holds the same bundle, schema.json and version, with the launcher of its OS", () => {
    const bundles = new Set<string>();
    for (const target of PLUGIN_TARGETS) {
      const dir = untar(join(first, pluginTarballName(version, target)));
      const start = launcher(target.os);
      const files = relativeFiles(dir);
      const bundle = files.filter((f) => f.startsWith("lib/native/"));
      expect(files, target.os).toEqual([...bundle, "package.json", start.name, "schema.json"].sort());
      // The plugin starts from plugin.js; the client (undici), the schemas (zod) and the verbs load on first use.
      expect(bundle).toEqual(expect.arrayContaining(["lib/native/plugin.js", "lib/native/client.js", "lib/native/schemas.js", "lib/native/rollout.js"]));
      expect(bundle.every((f) => f.endsWith(".js")), bundle.join(", ")).toBe(true);
      bundles.add(bundle.map((f) => `${f} ${sha256(join(dir, f))}`).join("\n"));
      expect(readFileSync(join(dir, "schema.json"), "utf8")).toBe(readFileSync(join(root, "schema.json"), "utf8"));
      expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toMatchObject({ name: "pulumi-resource-agent-hosting", version });
      const text = readFileSync(join(dir, start.name), "utf8");
      if (target.os === "windows") {
        expect(start.name).toBe("pulumi-resource-agent-hosting.cmd");
        expect(text).toContain('if not defined NODE_COMPILE_CACHE set "NODE_COMPILE_CACHE=%~dp0.node-compile-cache"\r\n');
        expect(text).toContain('\r\nnode "%~dp0lib\\native\\plugin.js" %*\r\n');
        expect(text.replaceAll("\r\n", "")).not.toContain("\n");
      } else {
        expect(start.name).toBe("pulumi-resource-agent-hosting");
        expect(text).toMatch(/^#!\/bin\/sh\n/);
        expect(text).toContain('NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$dir/.node-compile-cache}"\nexport NODE_COMPILE_CACHE\n');
        expect(text).toContain('\nexec node "$dir/lib/native/plugin.js" "$@"\n');
        expect(statSync(join(dir, start.name)).mode & 0o111).toBe(0o111);
      }
    }
    expect(bundles.size).toBe(1);
  });

  it("the wheel carries the version and the plugin's version and download URL", () => {
    const wheel = join(first, wheelName(version));
    const names = zipRead(wheel).split("\n");
    expect(names).toContain("pulumi_agent_hosting/agent.py");
    const plugin = JSON.parse(zipRead(wheel, "pulumi_agent_hosting/pulumi-plugin.json")) as Record<string, unknown>;
    expect(plugin).toEqual({ resource: true, name: "agent-hosting", version, server: PLUGIN_DOWNLOAD_URL });
    const metadata = zipRead(wheel, `pulumi_agent_hosting-${version}.dist-info/METADATA`);
    expect(metadata).toMatch(new RegExp(`^Name: pulumi_agent_hosting$`, "m"));
    expect(metadata).toMatch(new RegExp(`^Version: ${version.replaceAll(".", "\\.")}$`, "m"));
    expect(metadata).toMatch(/^Requires-Dist: pulumi<4\.0\.0,>=3\.0\.0$/m);
    expect(metadata).toMatch(/^Project-URL: Repository, https:\/\/github\.com\/agent-hosting\/pulumi-agent-hosting$/m);
    // The long description (what PyPI shows) is the SDK's README, schema-docs/python-readme.md.
    expect(metadata).toMatch(/^Description-Content-Type: text\/markdown$/m);
    expect(metadata.split("\n\n").slice(1).join("\n\n")).toBe(readFileSync(join(root, "schema-docs/python-readme.md"), "utf8"));
  });

  it("the sdist holds the SDK's sources, its README and the plugin metadata", () => {
    const dir = join(untar(join(first, sdistName(version))), `pulumi_agent_hosting-${version}`);
    expect(readFileSync(join(dir, "PKG-INFO"), "utf8")).toMatch(new RegExp(`^Version: ${version.replaceAll(".", "\\.")}$`, "m"));
    expect(readFileSync(join(dir, "pyproject.toml"), "utf8")).toBe(readFileSync(join(root, "sdk/python/pyproject.toml"), "utf8"));
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe(readFileSync(join(root, "sdk/python/pulumi_agent_hosting/README.md"), "utf8"));
    const plugin = "pulumi_agent_hosting/pulumi-plugin.json";
    expect(readFileSync(join(dir, plugin), "utf8")).toBe(readFileSync(join(root, "sdk/python", plugin), "utf8"));
  });

  it("the npm tarball is the package at this version", () => {
    const dir = untar(join(first, npmTarballName(version)));
    expect(JSON.parse(readFileSync(join(dir, "package/package.json"), "utf8"))).toMatchObject({ name: "pulumi-agent-hosting", version });
    expect(existsSync(join(dir, "package/dist/hosts/grpc/plugin-bin.js"))).toBe(true);
    expect(readFileSync(join(dir, "package/schema.json"), "utf8")).toBe(readFileSync(join(root, "schema.json"), "utf8"));
  });

  it("the Go module proxy serves sdk/go at v<version>: its go.mod, its .info and a zip of its files", () => {
    const [list, info, mod, zip] = goFiles().map((f) => join(first, f)) as [string, string, string, string];
    expect(readFileSync(list, "utf8")).toBe(`v${version}\n`);
    const seconds = Number(execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: root, encoding: "utf8" }).trim());
    const stamp = process.env["SOURCE_DATE_EPOCH"] ? Number(process.env["SOURCE_DATE_EPOCH"]) : seconds;
    expect(JSON.parse(readFileSync(info, "utf8"))).toEqual({ Version: `v${version}`, Time: new Date(stamp * 1000).toISOString().replace(".000Z", "Z") });
    expect(readFileSync(mod, "utf8")).toBe(readFileSync(join(root, "sdk/go/go.mod"), "utf8"));
    const prefix = `${GO_MODULE}@v${version}/`;
    const names = zipRead(zip).split("\n");
    expect(names.filter((n) => !n.startsWith(prefix))).toEqual([]);
    const sources = relativeFiles(join(root, "sdk/go"));
    expect(names.map((n) => n.slice(prefix.length)).sort()).toEqual(sources);
    expect(zipRead(zip, `${prefix}agenthosting/pulumi-plugin.json`)).toBe(readFileSync(join(root, "sdk/go/agenthosting/pulumi-plugin.json"), "utf8"));
  });

  it("the Maven repository holds the Java SDK's jar (with version.txt and plugin.json), its sources and javadoc jars and sdk/java's pom, each with its .md5 and .sha1", () => {
    const paths = mavenArtifactPaths(version);
    expect(paths.dir).toBe(`io/github/agent-hosting/agent-hosting/${version}`);
    const at = (path: string) => join(first, MAVEN_DIR, path);
    expect(readFileSync(at(paths.pom), "utf8")).toBe(readFileSync(join(root, "sdk/java/pom.xml"), "utf8"));
    const jar = zipRead(at(paths.jar)).split("\n");
    expect(jar).toContain("com/github/agent_hosting/agenthosting/Agent.class");
    expect(zipRead(at(paths.jar), "com/github/agent_hosting/agent-hosting/version.txt").trim()).toBe(version);
    const plugin = JSON.parse(zipRead(at(paths.jar), "com/github/agent_hosting/agent-hosting/plugin.json")) as Record<string, unknown>;
    expect(plugin).toEqual({ resource: true, name: "agent-hosting", version, server: PLUGIN_DOWNLOAD_URL });
    expect(zipRead(at(paths.sources)).split("\n")).toContain("com/github/agent_hosting/agenthosting/Agent.java");
    expect(zipRead(at(paths.javadoc)).split("\n")).toContain("com/github/agent_hosting/agenthosting/Agent.html");
    for (const path of [paths.jar, paths.sources, paths.javadoc, paths.pom]) {
      const bytes = readFileSync(at(path));
      expect(readFileSync(at(`${path}.sha1`), "utf8"), path).toBe(createHash("sha1").update(bytes).digest("hex"));
      expect(readFileSync(at(`${path}.md5`), "utf8"), path).toBe(createHash("md5").update(bytes).digest("hex"));
    }
  });
});
