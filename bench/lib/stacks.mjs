// Stacks of the bench programs (bench/programs/*.cjs), driven through the
// Automation API with the real CLI on a local file backend; what their
// exported state holds; and a PULUMI_HOME with the native plugin and the
// native control plugin installed from their tarballs, as a user installs one.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pluginVersion } from "../../scripts/lib/release/plugin-package.mjs";
import { repoRoot, usePulumiCli } from "../../scripts/lib/pulumi-env.mjs";
import { freshRequire, openStack } from "../../scripts/stack-op.mjs";
import { installControlPlugin } from "./native-control.mjs";

/** Engine output goes nowhere: the bench times operations, it does not show them. */
export const quiet = { onOutput: () => undefined };

/**
 * A stack named `name` under `work`, running `programFile` with `params`
 * (read at every operation, so a caller may change it between them),
 * configured for `emulator`; `env` is added to the CLI's environment (and
 * so to the provider process's).
 */
export function stackFor(work, name, programFile, params, emulator, env = {}) {
  const config = emulator
    ? { "agent-hosting:baseUrl": emulator.url, "agent-hosting:apiKey": { value: emulator.apiKey, secret: true } }
    : {};
  return openStack({
    workDir: join(work, name),
    stackName: "bench",
    projectName: `bench-${name}`,
    program: async () => freshRequire(join(repoRoot, "bench/programs", programFile))(params),
    config,
    env,
  });
}

/** The resources of the stack's state, from `pulumi stack export` (secrets stay encrypted), as a user sees them. */
export function exportedResources(handle) {
  const text = execFileSync("pulumi", ["stack", "export", "--stack", "bench"], {
    cwd: handle.stack.workspace.workDir,
    env: { ...process.env, ...handle.envVars },
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  return JSON.parse(text).deployment.resources ?? [];
}

const withoutProvider = ({ __provider: _provider, ...rest }) => rest;

/** Writes one Agent's `{ inputs, outputs }` (without the serialized provider) from `resources` to a file of `work`, for the controls. */
export function writeAgentSample(work, resources, name) {
  const agent = resources.find((r) => r.type.endsWith(":Agent"));
  if (!agent) throw new Error("no Agent in the stack's state");
  const file = join(work, `agent-sample-${name}.json`);
  writeFileSync(file, JSON.stringify({ inputs: withoutProvider(agent.inputs ?? {}), outputs: withoutProvider(agent.outputs ?? {}) }));
  return file;
}

/** The bytes of `__provider` (the serialized dynamic provider) of every resource of `resources` that has one. */
export const providerBytes = (resources) =>
  resources.map((r) => r.inputs?.__provider ?? r.outputs?.__provider).filter((p) => p !== undefined).map((p) => Buffer.byteLength(String(p)));

/** A PULUMI_HOME under `dir` with the real plugin and the native control plugin installed from their tarballs. */
export async function nativeHome(dir) {
  usePulumiCli();
  const home = join(dir, "pulumi-home");
  mkdirSync(home, { recursive: true });
  const tarball = execFileSync(process.execPath, [join(repoRoot, "scripts/pack-plugin.mjs"), join(dir, "plugin")], { encoding: "utf8" }).trim();
  execFileSync("pulumi", ["plugin", "install", "resource", "agent-hosting", pluginVersion(), "--file", tarball], {
    env: { ...process.env, PULUMI_HOME: home },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await installControlPlugin(home, join(dir, "control"));
  return home;
}
