#!/usr/bin/env node
// Runs one operation on a stack of an inline program, for the end-to-end
// tests and benchmarks (which run it as a child process, outside vitest's
// module transform, as a user's program runs):
//
//   node scripts/stack-op.mjs <up|preview|refresh|destroy|export|output-json|outputs|cancel>
//        --work-dir DIR [--stack NAME] [--program FILE] [--params JSON]
//        [--config JSON] [--parallel N] [--refresh] [--clear-pending-creates] [--project NAME]
//
// The engine's own output goes to stderr; the last line of stdout is a JSON
// summary: { ok, op, changeSummary, outputs, error }.
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { freshRequire, openStack } from "./lib/stack.mjs";

const { positionals, values } = parseArgs({
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

try {
  const { stack, envVars } = await openStack({
    workDir: resolve(values["work-dir"]),
    stackName: values.stack,
    projectName: values.project,
    program,
    config: JSON.parse(values.config),
  });
  const onOutput = (s) => process.stderr.write(s);
  const common = { onOutput, ...(values.parallel ? { parallel: Number(values.parallel) } : {}) };
  let result;
  switch (op) {
    case "up":
      result = await stack.up({ ...common, refresh: values.refresh });
      break;
    case "preview":
      result = await stack.preview({ ...common, refresh: values.refresh, diff: true });
      break;
    case "refresh":
      result = await stack.refresh({ ...common, clearPendingCreates: values["clear-pending-creates"] });
      break;
    case "destroy":
      result = await stack.destroy(common);
      break;
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
  const extra = result?.deployment ? { deployment: result.deployment } : {};
  process.stdout.write(`\n${JSON.stringify({ ok: true, op, ...summary(result), ...extra })}\n`);
} catch (error) {
  const message = error?.stderr || error?.message || String(error);
  process.stdout.write(`\n${JSON.stringify({ ok: false, op, error: String(message), stdout: String(error?.stdout ?? "") })}\n`);
  process.exitCode = 1;
}
