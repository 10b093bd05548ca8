// The native provider plugin as a Pulumi plugin tarball, for
// `pulumi plugin install resource agent-hosting <version> --file <tarball>`.
//
// Layout (the tarball's root becomes the plugin's directory under
// ~/.pulumi/plugins/resource-agent-hosting-v<version>/):
//   pulumi-resource-agent-hosting   launcher: runs Node.js (>= 20, from PATH) on the bundle
//   lib/native/plugin.js            the plugin and every dependency in one CommonJS file
//   schema.json, package.json       read by the plugin (GetSchema, GetPluginInfo)
// The bundle is made by rolldown from the built dist/native/bin.js, so the
// user's machine needs Node.js and nothing from npm.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./pulumi-env.mjs";

const LAUNCHER = `#!/bin/sh
# pulumi-resource-agent-hosting: the agent-hosting provider plugin, run on Node.js >= 20.
dir=$(cd "$(dirname "$0")" && pwd)
if ! command -v node >/dev/null 2>&1; then
  echo "pulumi-resource-agent-hosting: Node.js >= 20 must be on PATH (https://nodejs.org)" >&2
  exit 1
fi
exec node "$dir/lib/native/plugin.js" "$@"
`;

export function pluginVersion() {
  return JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version;
}

export function tarballName(version = pluginVersion()) {
  return `pulumi-resource-agent-hosting-v${version}.tar.gz`;
}

/** Bundles the built plugin and writes the tarball into `outDir`; returns its path. */
export async function packPlugin(outDir = join(repoRoot, "dist-plugin")) {
  const require = createRequire(join(repoRoot, "package.json"));
  const { build } = await import(require.resolve("rolldown"));
  const version = pluginVersion();
  const stage = mkdtempSync(join(tmpdir(), "agent-hosting-plugin-"));
  try {
    await build({
      input: join(repoRoot, "dist/native/bin.js"),
      platform: "node",
      logLevel: "warn",
      output: { file: join(stage, "lib/native/plugin.js"), format: "cjs", codeSplitting: false },
    });
    copyFileSync(join(repoRoot, "schema.json"), join(stage, "schema.json"));
    writeFileSync(join(stage, "package.json"), `${JSON.stringify({ name: "pulumi-resource-agent-hosting", version, private: true }, null, 2)}\n`);
    writeFileSync(join(stage, "pulumi-resource-agent-hosting"), LAUNCHER);
    chmodSync(join(stage, "pulumi-resource-agent-hosting"), 0o755);
    chmodSync(stage, 0o755);
    mkdirSync(outDir, { recursive: true });
    const tarball = join(outDir, tarballName(version));
    execFileSync("tar", ["-czf", tarball, "-C", stage, "."]);
    return tarball;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
