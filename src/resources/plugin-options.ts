/**
 * The plugin the native classes (the Agent, the Provider, the functions of
 * `pulumi-agent-hosting/native`) ask the engine for: the package's own version,
 * fetched from the provider's releases when it is not installed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { PLUGIN_DOWNLOAD_URL } from "../core/plugin-download-url";

// dist/resources/ (or src/resources/) is two levels below the package root.
const version = (JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string }).version;

/**
 * Options with the plugin's version and download URL filled in, unless the
 * caller chose them (or a provider, which carries its own).
 */
export function withPluginOptions<T extends pulumi.ResourceOptions | pulumi.InvokeOptions>(opts: T | undefined): T {
  return {
    ...(opts ?? {}),
    version: opts?.version ?? version,
    pluginDownloadURL: opts?.pluginDownloadURL ?? PLUGIN_DOWNLOAD_URL,
  } as T;
}
