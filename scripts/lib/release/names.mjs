// The release's version and the names of its files. One version, package.json's,
// is in every name here, in schema.json and in both SDKs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../pulumi-env.mjs";

/** The platforms the engine downloads a plugin for, as it names them in the tarball's file name. */
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
/** The directory, under the release directory, that is a Maven repository holding the Java SDK. */
export const MAVEN_DIR = "maven";
export const CHECKSUMS_FILE = "SHA256SUMS";

export function releaseVersion() {
  return JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version;
}

/** The name the engine asks for: pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz. */
export function pluginTarballName(version, { os, arch }) {
  return `pulumi-resource-agent-hosting-v${version}-${os}-${arch}.tar.gz`;
}

export const wheelName = (version) => `pulumi_agent_hosting-${version}-py3-none-any.whl`;
export const sdistName = (version) => `pulumi_agent_hosting-${version}.tar.gz`;
export const npmTarballName = (version) => `pulumi-agent-hosting-${version}.tgz`;

/** The files at the top of the release directory, beside goproxy/, maven/ and SHA256SUMS. */
export function releaseFileNames(version = releaseVersion()) {
  return [
    ...PLUGIN_TARGETS.map((target) => pluginTarballName(version, target)),
    wheelName(version),
    sdistName(version),
    npmTarballName(version),
  ];
}
