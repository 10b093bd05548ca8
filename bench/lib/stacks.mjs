// Stacks of the bench programs (bench/programs/*.cjs), driven through the
// Automation API with the real CLI on a local file backend, and the bytes of
// the serialized provider each resource carries in the exported state.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "../../scripts/lib/pulumi-env.mjs";
import { freshRequire, openStack } from "../../scripts/stack-op.mjs";

/** Engine output goes nowhere: the bench times operations, it does not show them. */
export const quiet = { onOutput: () => undefined };

/**
 * A stack named `name` under `work`, running `programFile` with `params`,
 * configured for `emulator` if given; `env` is added to the CLI's environment
 * (and so to the provider process's).
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

/** The resources of the stack's state, from `pulumi stack export` (secrets stay encrypted). */
export function exportedResources(handle) {
  const text = execFileSync("pulumi", ["stack", "export", "--stack", "bench"], {
    cwd: handle.stack.workspace.workDir,
    env: { ...process.env, ...handle.envVars },
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  return JSON.parse(text).deployment.resources ?? [];
}

/** One Agent's inputs and outputs as the state holds them, without the serialized provider. */
export function agentSample(handle) {
  const agent = exportedResources(handle).find((r) => r.type.endsWith(":Agent"));
  if (!agent) throw new Error("no Agent in the stack's state");
  const strip = ({ __provider: _provider, ...rest }) => rest;
  return { inputs: strip(agent.inputs ?? {}), outputs: strip(agent.outputs ?? {}) };
}

/**
 * Bytes of `__provider` (the serialized dynamic provider) of every resource
 * that has one, from `pulumi stack export` without `--show-secrets`, the way
 * a user sees the state.
 */
export function providerBytes(handle) {
  return exportedResources(handle)
    .map((r) => r.inputs?.__provider ?? r.outputs?.__provider)
    .filter((p) => p !== undefined)
    .map((p) => Buffer.byteLength(String(p)));
}
