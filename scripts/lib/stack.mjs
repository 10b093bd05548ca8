// One stack of an inline Pulumi program, driven through the Automation API,
// which runs the real `pulumi` CLI (up, preview, refresh, destroy) with the
// Node SDK's own in-process language runtime.
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { offlineEnv, repoRoot, usePulumiCli } from "./pulumi-env.mjs";

const require = createRequire(join(repoRoot, "package.json"));

/**
 * Opens (creating if needed) a stack whose work directory is `workDir`, a
 * directory inside the repository so the provider process resolves
 * `pulumi-agent-hosting` from it. `program` is a function returning outputs.
 */
export async function openStack({ workDir, stackName = "dev", projectName = "agent-hosting-e2e", program, env = {}, config = {}, extraArgs }) {
  usePulumiCli();
  const auto = require("@pulumi/pulumi/automation");
  mkdirSync(workDir, { recursive: true });
  const envVars = offlineEnv(join(workDir, ".state"), env);
  const workspace = await auto.LocalWorkspace.create({
    workDir,
    program,
    envVars,
    pulumiHome: envVars.PULUMI_HOME,
    projectSettings: { name: projectName, runtime: "nodejs" },
    ...(extraArgs ? { pulumiCommand: await commandWithArgs(auto, extraArgs) } : {}),
  });
  const stack = await auto.Stack.createOrSelect(stackName, workspace);
  const entries = Object.entries(config);
  if (entries.length > 0) {
    await stack.setAllConfig(Object.fromEntries(entries.map(([k, v]) => [k, typeof v === "string" ? { value: v } : v])));
  }
  return { stack, auto, envVars };
}

/** Loads a program module afresh (so each run re-registers its resources). */
export function freshRequire(path) {
  const resolved = require.resolve(path);
  for (const key of Object.keys(require.cache)) {
    if (key === resolved || key.startsWith(resolved.replace(/[^/]+$/, ""))) delete require.cache[key];
  }
  return require(resolved);
}

/**
 * The CLI with `extraArgs[command]` (say `{ preview: ["--json"] }`) added to
 * that command: with `--json`, `stack.preview()` returns as its stdout the
 * document `pulumi preview --json` prints, and `stack.up()` what
 * `pulumi up --json` prints. (The Automation API has no option for these
 * flags; the command is otherwise the same.)
 */
async function commandWithArgs(auto, extraArgs) {
  const cli = await auto.PulumiCommand.get({ skipVersionCheck: true });
  const command = Object.create(cli);
  command.run = (args, ...rest) => cli.run(extraArgs[args[0]] ? [...args, ...extraArgs[args[0]]] : args, ...rest);
  return command;
}
