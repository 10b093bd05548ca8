/**
 * One version, package.json's, and one download location for the plugin,
 * everywhere the released files carry them: schema.json, both SDKs' plugin
 * metadata and package metadata, the SDKs' default resource options, the
 * release's file names and the native Node classes' options. Changing the
 * version without `npm run gen` fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { releaseFileNames, releaseVersion } from "../support/project-scripts";
import { withPluginOptions } from "../../src/resources/plugin-options";
import { GO_MODULE } from "../../src/hosts/grpc/package-schema";
import { PLUGIN_DOWNLOAD_URL, REPOSITORY } from "../../src/core/plugin-download-url";

const root = join(__dirname, "..", "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const version = (JSON.parse(read("package.json")) as { version: string }).version;

describe("the release's version and plugin location", () => {
  it("the release takes package.json's version, and every file name of it carries that version", () => {
    expect(releaseVersion()).toBe(version);
    const names = releaseFileNames();
    expect(names.length).toBe(8);
    for (const name of names) expect(name).toContain(`${version}`);
  });

  it("schema.json names the version and the download URL of the provider's own repository", () => {
    const schema = JSON.parse(read("schema.json")) as { version: string; pluginDownloadURL: string };
    expect(schema.version).toBe(version);
    expect(schema.pluginDownloadURL).toBe(PLUGIN_DOWNLOAD_URL);
    expect(PLUGIN_DOWNLOAD_URL).toBe(`github://api.github.com/${REPOSITORY}`);
    expect(GO_MODULE).toBe(`github.com/${REPOSITORY}/sdk/go`);
  });

  it("both SDKs' pulumi-plugin.json carry the version and the download URL (`server`)", () => {
    for (const path of ["sdk/python/pulumi_agent_hosting/pulumi-plugin.json", "sdk/go/agenthosting/pulumi-plugin.json"]) {
      expect(JSON.parse(read(path)), path).toEqual({ resource: true, name: "agent-hosting", version, server: PLUGIN_DOWNLOAD_URL });
    }
  });

  it("the Python package's version and default options", () => {
    expect(read("sdk/python/pyproject.toml")).toMatch(new RegExp(`^\\s*version = "${version.replaceAll(".", "\\.")}"$`, "m"));
    const utilities = read("sdk/python/pulumi_agent_hosting/_utilities.py");
    expect(utilities).toContain(`def get_plugin_download_url():\n\treturn "${PLUGIN_DOWNLOAD_URL}"`);
    expect(utilities).toContain(`def get_version():\n    return "${version}"`);
  });

  it("the Go module's path and default options", () => {
    expect(read("sdk/go/go.mod")).toMatch(new RegExp(`^module ${GO_MODULE}$`, "m"));
    const utilities = read("sdk/go/agenthosting/internal/pulumiUtilities.go");
    expect(utilities.match(/pulumi\.PluginDownloadURL\("([^"]*)"\)/g)).toEqual([
      `pulumi.PluginDownloadURL("${PLUGIN_DOWNLOAD_URL}")`,
      `pulumi.PluginDownloadURL("${PLUGIN_DOWNLOAD_URL}")`,
    ]);
    expect(utilities.match(/semver\.MustParse\("([^"]*)"\)/g)).toEqual([`semver.MustParse("${version}")`, `semver.MustParse("${version}")`]);
  });

  it("the native Node classes ask for this version from this location, unless the program chose others", () => {
    expect(withPluginOptions(undefined)).toEqual({ version, pluginDownloadURL: PLUGIN_DOWNLOAD_URL });
    expect(withPluginOptions({ protect: true })).toEqual({ protect: true, version, pluginDownloadURL: PLUGIN_DOWNLOAD_URL });
    expect(withPluginOptions({ version: "9.9.9", pluginDownloadURL: "https://mirror.example/plugins" })).toEqual({
      version: "9.9.9",
      pluginDownloadURL: "https://mirror.example/plugins",
    });
  });
});
