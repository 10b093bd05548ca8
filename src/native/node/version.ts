/** The plugin version these classes ask the engine for: the package's own. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as pulumi from "@pulumi/pulumi";

// dist/native/node/ (or src/native/node/) is three levels below the package root.
const version = (JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "package.json"), "utf8")) as { version: string }).version;

/** Options with the plugin version filled in, unless the caller chose one (or a provider, which carries its own). */
export function withVersion<T extends pulumi.ResourceOptions | pulumi.InvokeOptions>(opts: T | undefined): T {
  return { ...(opts ?? {}), version: opts?.version ?? version } as T;
}
