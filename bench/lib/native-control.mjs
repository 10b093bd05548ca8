// The native control plugin (bench/programs/native-shaped-plugin.cjs),
// installed as the real plugin is: bundled by rolldown into one CommonJS
// file, packed in a tarball with the same launcher shape
// (pulumi-resource-agent-shaped runs Node on lib/plugin.js), and installed
// with `pulumi plugin install resource agent-shaped 0.0.1 --file <tarball>`
// into a PULUMI_HOME, where the engine finds it and spawns it.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { repoRoot } from "../../scripts/lib/pulumi-env.mjs";
import { tarGz } from "../../scripts/lib/release/tar-gz.mjs";

export const CONTROL_PLUGIN = { name: "agent-shaped", version: "0.0.1" };

const LAUNCHER = `#!/bin/sh
# pulumi-resource-agent-shaped: the bench's native control plugin, run on Node.js.
dir=$(cd "$(dirname "$0")" && pwd)
exec node "$dir/lib/plugin.js" "$@"
`;

/** Bundles, packs and installs the control plugin into the PULUMI_HOME `home`; `dir` is scratch space. */
export async function installControlPlugin(home, dir) {
  mkdirSync(dir, { recursive: true });
  const require = createRequire(join(repoRoot, "package.json"));
  const { build } = await import(require.resolve("rolldown"));
  const bundle = join(dir, "plugin.js");
  await build({
    input: join(repoRoot, "bench/programs/native-shaped-plugin.cjs"),
    platform: "node",
    logLevel: "warn",
    output: { file: bundle, format: "cjs", codeSplitting: false },
  });
  const entries = [
    { path: "lib/", mode: 0o755 },
    { path: "lib/plugin.js", mode: 0o644, data: readFileSync(bundle) },
    { path: `pulumi-resource-${CONTROL_PLUGIN.name}`, mode: 0o755, data: LAUNCHER },
  ];
  const tarball = join(dir, `pulumi-resource-${CONTROL_PLUGIN.name}-v${CONTROL_PLUGIN.version}.tar.gz`);
  writeFileSync(tarball, tarGz(entries, 0));
  execFileSync("pulumi", ["plugin", "install", "resource", CONTROL_PLUGIN.name, CONTROL_PLUGIN.version, "--file", tarball], {
    env: { ...process.env, PULUMI_HOME: home },
    stdio: ["ignore", "ignore", "inherit"],
  });
}
