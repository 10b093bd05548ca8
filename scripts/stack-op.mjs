#!/usr/bin/env node
// One stack of an inline Pulumi program, driven through the Automation API
// (the real `pulumi` CLI with the Node SDK's in-process language runtime) on
// an offline file backend. Run as a script, it does one operation, for the
// end-to-end tests (which run it as a child process, outside vitest's module
// transform, as a user's program runs); the bench and the demo import
// `openStack` from it:
//
//   node scripts/stack-op.mjs <up|up-json|preview|preview-json|refresh|refresh-json|destroy|export|import-state|output-json|outputs|cancel>
//        --work-dir DIR [--stack NAME] [--program FILE] [--params JSON] [--no-diff]
//        [--config JSON] [--parallel N] [--refresh] [--clear-pending-creates] [--project NAME]
//        [--preview-arg FLAG ...] [--state-file FILE] [--policy-pack DIR ...] [--policy-pack-config FILE ...]
//
// The engine's own output goes to stderr; the last line of stdout is a JSON
// summary: { ok, op, changeSummary, outputs, error, agentOperations }.
// `up` runs `pulumi up --yes` as users run it, without the Automation API's
// `--skip-preview`: the CLI previews, then updates once the preview
// succeeded. It reports in `agentOperations` what the preview and the update
// each did to every agent and in `previewChangeSummary` that preview's change
// summary (absent when the preview failed). `preview-json` runs
// `pulumi preview --json` (plus any --preview-arg, e.g. --show-sames) and
// adds its document as `preview`. `up-json` runs `pulumi up --json` and adds
// what it printed as `upJson` (text: a digest, then one event per line).
// `refresh-json` runs the CLI's own `pulumi refresh --preview-only --json`
// and adds its document as `preview`. The protocol the tests speak to every
// stack driver (this one, the Go and Python drivers, the Java CLI reader) is
// written down once, in test/support/stack-driver.ts.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { agentOperationRecorder } from "./lib/operations.mjs";
import { upPhases } from "./lib/up-phases.cjs";
import { cliCommand, setConfigOnce, stackExists, trimAfterOperation } from "./lib/workspace-shortcuts.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(repoRoot, "package.json"));

/** Environment variables for an offline stack whose backend and home live under `stateDir`. */
export function offlineEnv(stateDir, extra = {}) {
  const backend = join(stateDir, "backend");
  const home = join(stateDir, "pulumi-home");
  mkdirSync(backend, { recursive: true });
  mkdirSync(home, { recursive: true });
  return {
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "agent-hosting-local-passphrase",
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    ...extra,
  };
}

/**
 * The CLI on this process's PATH (the Automation API looks there): the one the
 * test suite's global setup provided (AGENT_HOSTING_PULUMI_CLI_DIR), else the
 * one scripts/pulumi-cli.sh builds and caches.
 */
async function usePulumiCli() {
  const dir = process.env.AGENT_HOSTING_PULUMI_CLI_DIR || (await import("./lib/pulumi-env.mjs")).pulumiCliDir();
  if (!(process.env.PATH ?? "").split(":").includes(dir)) process.env.PATH = `${dir}:${process.env.PATH ?? ""}`;
  return dir;
}

/**
 * Opens (creating if needed) a stack whose work directory is `workDir`, a
 * directory inside the repository so the provider process resolves
 * `pulumi-agent-hosting` from it. `program` is a function returning outputs.
 */
export async function openStack({ workDir, stackName = "dev", projectName = "agent-hosting-e2e", program, env = {}, config = {}, rewriteArgs }) {
  const cliDir = await usePulumiCli();
  const auto = require("@pulumi/pulumi/automation");
  mkdirSync(workDir, { recursive: true });
  const stateDir = join(workDir, ".state");
  const envVars = offlineEnv(stateDir, env);
  const cli = await cliCommand(auto, cliDir, require);
  const workspace = await auto.LocalWorkspace.create({
    workDir,
    program,
    envVars,
    pulumiHome: envVars.PULUMI_HOME,
    projectSettings: { name: projectName, runtime: "nodejs" },
    pulumiCommand: rewriteArgs ? withArgs(cli, rewriteArgs) : cli,
  });
  // An existing stack needs no `pulumi stack select`: every command names it; a new one is made with
  // `pulumi stack init` alone, without a `stack select` that fails first (scripts/lib/workspace-shortcuts.mjs).
  const exists = stackExists(join(stateDir, "backend"), projectName, stackName);
  if (exists) workspace.selectStack = async () => {};
  const stack = exists ? await auto.Stack.select(stackName, workspace) : await auto.Stack.create(stackName, workspace);
  const entries = Object.entries(config);
  if (entries.length > 0) {
    await setConfigOnce(stack, Object.fromEntries(entries.map(([k, v]) => [k, typeof v === "string" ? { value: v } : v])), { workDir, stateDir });
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
 * The CLI with each command's arguments passed through `rewrite` first. The
 * Automation API has no option for some flags (`--json`, a preview before an
 * up); the commands are otherwise the same. With `--json`, `stack.preview()`
 * returns as its stdout the document `pulumi preview --json` prints, and
 * `stack.up()` what `pulumi up --json` prints.
 */
function withArgs(cli, rewrite) {
  const command = Object.create(cli);
  command.run = (args, ...rest) => cli.run(rewrite(args), ...rest);
  return command;
}

/** A rewrite adding `flags` to `command` (say `adding("preview", ["--json"])`). */
const adding = (command, flags) => (args) => (args[0] === command ? [...args, ...flags] : args);

/** A rewrite leaving `flag` out of `command` (say `dropping("up", "--skip-preview")`). */
const dropping = (command, flag) => (args) => (args[0] === command ? args.filter((arg) => arg !== flag) : args);

/**
 * Runs one operation named by `args` (this script's arguments) and prints its
 * answer as the last line of stdout; resolves to the exit code. The stack-op
 * host (scripts/stack-op-host.mjs) calls it once per request.
 */
export async function main(args) {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      "work-dir": { type: "string" },
      stack: { type: "string", default: "dev" },
      project: { type: "string", default: "agent-hosting-e2e" },
      program: { type: "string" },
      params: { type: "string", default: "{}" },
      config: { type: "string", default: "{}" },
      parallel: { type: "string" },
      refresh: { type: "boolean", default: false },
      "clear-pending-creates": { type: "boolean", default: false },
      "no-diff": { type: "boolean", default: false },
      "preview-arg": { type: "string", multiple: true, default: [] },
      "state-file": { type: "string" },
      "policy-pack": { type: "string", multiple: true, default: [] },
      "policy-pack-config": { type: "string", multiple: true, default: [] },
    },
  });
  const op = positionals[0];
  const params = JSON.parse(values.params);
  const programPath = values.program ? resolve(values.program) : undefined;
  const program = async () => {
    if (!programPath) return {};
    const mod = freshRequire(programPath);
    const fn = typeof mod === "function" ? mod : mod.default;
    return fn(params);
  };

  function summary(result) {
    return {
      changeSummary: result?.summary?.resourceChanges ?? result?.changeSummary ?? {},
      outputs: Object.fromEntries(Object.entries(result?.outputs ?? {}).map(([k, v]) => [k, v.secret ? "[secret]" : v.value])),
    };
  }

  // What the CLI printed on stdout: for `preview-json`, the document, also when the preview fails.
  let cliStdout = "";
  // For `up`: what its preview and its update did to each agent, and its preview's change summary.
  let agentOperations;
  let previewChangeSummary;
  try {
    const { stack, envVars } = await openStack({
      workDir: resolve(values["work-dir"]),
      stackName: values.stack,
      projectName: values.project,
      program,
      config: JSON.parse(values.config),
      ...(op === "preview-json" ? { rewriteArgs: adding("preview", ["--json", ...values["preview-arg"]]) } : {}),
      ...(op === "up-json" ? { rewriteArgs: adding("up", ["--json"]) } : {}),
      // `pulumi up` as users run it, previewing before it updates: the Automation API's `stack.up()` passes `--skip-preview`.
      ...(op === "up" ? { rewriteArgs: dropping("up", "--skip-preview") } : {}),
    });
    const summaryOfEngine = trimAfterOperation(stack);
    const onOutput = (s) => {
      cliStdout += s;
      process.stderr.write(s);
    };
    const policies = {
      ...(values["policy-pack"].length > 0 ? { policyPacks: values["policy-pack"].map((dir) => resolve(dir)) } : {}),
      ...(values["policy-pack-config"].length > 0 ? { policyPackConfigs: values["policy-pack-config"].map((file) => resolve(file)) } : {}),
    };
    const common = { onOutput, onEvent: summaryOfEngine.onEvent, ...policies, ...(values.parallel ? { parallel: Number(values.parallel) } : {}) };
    let result;
    switch (op) {
      case "up": {
        // `pulumi up --yes` as the CLI runs it: its preview, then the update once that preview succeeded.
        const previewed = agentOperationRecorder();
        const applied = agentOperationRecorder();
        agentOperations = { preview: previewed.ops, update: applied.ops };
        const phases = upPhases({
          preview: previewed.onEvent,
          update: summaryOfEngine.also(applied.onEvent),
          previewSucceeded: (changes) => (previewChangeSummary = changes),
        });
        result = await stack.up({ ...common, refresh: values.refresh, onEvent: phases });
        break;
      }
      case "preview":
        result = await stack.preview({ ...common, refresh: values.refresh, diff: !values["no-diff"] });
        break;
      case "preview-json": {
        const previewed = await stack.preview({ ...common, refresh: values.refresh });
        result = { ...previewed, preview: JSON.parse(cliStdout) };
        break;
      }
      case "up-json": {
        const applied = await stack.up({ ...common, refresh: values.refresh });
        result = { ...applied, upJson: cliStdout };
        break;
      }
      case "refresh-json": {
        // The CLI's own refresh preview (the Automation API's refresh always applies); PULUMI_SKIP_CONFIRMATIONS means --yes, which it refuses.
        const { PULUMI_SKIP_CONFIRMATIONS: _yes, ...refreshEnv } = { ...process.env, ...envVars };
        const text = execFileSync("pulumi", ["refresh", "--preview-only", "--json", "--stack", values.stack], {
          cwd: resolve(values["work-dir"]),
          env: refreshEnv,
          encoding: "utf8",
          maxBuffer: 256 * 1024 * 1024,
        });
        result = { preview: JSON.parse(text) };
        break;
      }
      case "refresh":
        result = await stack.refresh({ ...common, clearPendingCreates: values["clear-pending-creates"] });
        break;
      case "destroy":
        result = await stack.destroy(common);
        break;
      case "import-state": {
        // The CLI's own `pulumi stack import` of an edited export (--state-file), the repair Pulumi offers for a checkpoint.
        execFileSync("pulumi", ["stack", "import", "--stack", values.stack, "--file", resolve(values["state-file"])], {
          cwd: resolve(values["work-dir"]),
          env: { ...process.env, ...envVars },
          encoding: "utf8",
        });
        result = {};
        break;
      }
      case "outputs":
        result = { outputs: await stack.outputs() };
        break;
      case "export": {
        // The CLI's own export, without --show-secrets: what the state holds.
        const text = execFileSync("pulumi", ["stack", "export", "--stack", values.stack], {
          cwd: resolve(values["work-dir"]),
          env: { ...process.env, ...envVars },
          encoding: "utf8",
          maxBuffer: 256 * 1024 * 1024,
        });
        result = { deployment: JSON.parse(text) };
        break;
      }
      case "output-json": {
        // The CLI's own `pulumi stack output --json`, without --show-secrets.
        const text = execFileSync("pulumi", ["stack", "output", "--json", "--stack", values.stack], {
          cwd: resolve(values["work-dir"]),
          env: { ...process.env, ...envVars },
          encoding: "utf8",
        });
        result = { deployment: { outputJson: text } };
        break;
      }
      case "cancel":
        await stack.cancel();
        result = {};
        break;
      default:
        throw new Error(`unknown operation "${op}"`);
    }
    const extra = result?.deployment
      ? { deployment: result.deployment }
      : result?.preview
        ? { preview: result.preview }
        : result?.upJson !== undefined
          ? { upJson: result.upJson }
          : {};
    process.stdout.write(`\n${JSON.stringify({ ok: true, op, ...summary(result), ...extra, ...(agentOperations ? { agentOperations } : {}), ...(previewChangeSummary ? { previewChangeSummary } : {}) })}\n`);
  } catch (error) {
    const message = error?.stderr || error?.message || String(error);
    // A failed `pulumi preview --json` still prints its document, with the errors among its diagnostics.
    let preview;
    if (op === "preview-json" || op === "refresh-json") {
      try {
        preview = JSON.parse(cliStdout);
      } catch {
        preview = undefined;
      }
    }
    const stdout = String(error?.stdout ?? "");
    const ops = { ...(agentOperations ? { agentOperations } : {}), ...(previewChangeSummary ? { previewChangeSummary } : {}) };
    const upJson = op === "up-json" ? { upJson: cliStdout } : {};
    process.stdout.write(`\n${JSON.stringify({ ok: false, op, error: String(message), stdout, ...(preview ? { preview } : {}), ...upJson, ...ops })}\n`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
