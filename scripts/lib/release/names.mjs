// The release's version and the names of its files. One version, package.json's,
// is in every name here, in schema.json and in both SDKs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../pulumi-env.mjs";

/** @typedef {{ os: "linux" | "darwin" | "windows", arch: "amd64" | "arm64" }} PluginTarget */

/**
 * The platforms the engine downloads a plugin for, as it names them in the tarball's file name.
 * @type {readonly PluginTarget[]}
 */
export const PLUGIN_TARGETS = [
  { os: "linux", arch: "amd64" },
  { os: "linux", arch: "arm64" },
  { os: "darwin", arch: "amd64" },
  { os: "darwin", arch: "arm64" },
  { os: "windows", arch: "amd64" },
];

/** Where `npm run release` writes, relative to the repository. */
export const RELEASE_DIR = "dist-release";
/** The directory, under the release directory, that is a Go module proxy holding the Go SDK. */
export const GOPROXY_DIR = "goproxy";
export const CHECKSUMS_FILE = "SHA256SUMS";

/** @returns {string} */
export function releaseVersion() {
  return JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version;
}

/**
 * The name the engine asks for: pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz.
 * @param {string} version
 * @param {PluginTarget} target
 * @returns {string}
 */
export function pluginTarballName(version, { os, arch }) {
  return `pulumi-resource-agent-hosting-v${version}-${os}-${arch}.tar.gz`;
}

export const wheelName = (/** @type {string} */ version) => `pulumi_agent_hosting-${version}-py3-none-any.whl`;
export const sdistName = (/** @type {string} */ version) => `pulumi_agent_hosting-${version}.tar.gz`;
export const npmTarballName = (/** @type {string} */ version) => `pulumi-agent-hosting-${version}.tgz`;

/**
 * The files at the top of the release directory, beside goproxy/ and SHA256SUMS.
 * @param {string} [version]
 * @returns {string[]}
 */
export function releaseFileNames(version = releaseVersion()) {
  return [
    ...PLUGIN_TARGETS.map((target) => pluginTarballName(version, target)),
    wheelName(version),
    sdistName(version),
    npmTarballName(version),
  ];
}
