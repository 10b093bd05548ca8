// Runs one stack operation of an inline program as a user's own script
// would: copied into a program directory outside the repository, it loads
// `@pulumi/pulumi/automation` and `pulumi-agent-hosting` from that
// directory's node_modules (the installed tarball), never from the repo.
//
//   node packed-runner.cjs <up|preview|refresh|destroy|typecheck> '<params JSON>'
//
// params: { baseUrl, apiKey, agent: { serviceName, image }, secretSet, existingAgent }
// The program declares an Agent, reads the existing agent `existingAgent`
// with Agent.get, reads the secret set and the new agent's logs, and exports
// the Node version it runs on.
// With params.programFile (a copied example: { baseUrl, apiKey, programFile }),
// the program is that file, loaded as Pulumi's Node.js language host loads a
// TypeScript program (through the directory's ts-node), and the project is
// the directory's own Pulumi.yaml. With params.engineTypeScript as well, it
// is loaded as the engine loads it (registerAsTheEngine, below); op
// "typecheck" with params.files compiles those files that way, without
// running them (no engine, no stack).
// The engine's output goes to stderr; the last line of stdout is a JSON
// summary: { ok, op, changeSummary, outputs, error?, agentOperations?, previewChangeSummary? }.
// `up` is one `pulumi up`, which previews first (upWithItsPreview, below).
const auto = require("@pulumi/pulumi/automation");
// Copied beside this runner (copyPackedRunner, test/e2e/support/packed-install.ts).
const { upPhases } = require("./up-phases.cjs");

const [op, paramsJson] = process.argv.slice(2);
const params = JSON.parse(paramsJson ?? "{}");

/** Collects { urn: [op, ...] } of the Agents from engine events (the test compares preview and update). */
function agentOperationRecorder() {
  const ops = {};
  const onEvent = (event) => {
    const meta = event?.resourcePreEvent?.metadata;
    if (meta && /:Agent$/.test(meta.type)) (ops[meta.urn] ??= []).push(meta.op);
  };
  return { ops, onEvent };
}

/**
 * ts-node registered as the Node.js language host registers it for a
 * TypeScript program (@pulumi/pulumi's cmd/run/run.js, with its tsutils.js):
 * the project's own `typescript` and `ts-node` when it has them, else the
 * ones @pulumi/pulumi vendors (TypeScript 3.8.3, ts-node 7.0.1); the
 * project's tsconfig.json over the host's defaults for a TypeScript older
 * than 4.7 (target ES2020, commonjs, node resolution); type-checking on
 * (the program's own files: ts-node reports no library's errors), unless
 * PULUMI_NODEJS_TRANSPILE_ONLY or the tsconfig's noCheck says otherwise.
 * No language host binary exists on this machine, so the test runs the
 * program in an inline program of the Automation API, loaded the host's way.
 */
function registerAsTheEngine() {
  const tsutils = require("@pulumi/pulumi/tsutils");
  const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
  const compilerOptions = tsutils.loadTypeScriptCompilerOptions("tsconfig.json");
  const transpileOnlyEnv = process.env["PULUMI_NODEJS_TRANSPILE_ONLY"];
  const service = require(tsnodeRequire).register({
    compiler: typescriptRequire,
    transpileOnly: transpileOnlyEnv ? transpileOnlyEnv === "true" : compilerOptions.noCheck,
    project: "tsconfig.json",
    skipProject: !require("node:fs").existsSync("tsconfig.json"),
    compilerOptions: { target: "ES2020", module: "commonjs", moduleResolution: "node", sourceMap: "true", ...compilerOptions },
  });
  return { typescript: require(typescriptRequire).version, tsnode: tsnodeRequire, service };
}

/** op "typecheck": each of params.files compiled as the engine compiles it, without running it: { file: error message or null }. */
function typecheckAsTheEngine(files) {
  const { typescript, tsnode, service } = registerAsTheEngine();
  const fs = require("node:fs");
  const path = require("node:path");
  const results = {};
  for (const file of files) {
    const full = path.resolve(file);
    try {
      service.compile(fs.readFileSync(full, "utf8"), full);
      results[file] = null;
    } catch (error) {
      results[file] = String(error?.message ?? error);
    }
  }
  return { typescript, tsnode, results };
}

/**
 * The CLI on PATH, its `up` run as users run it: the Automation API's
 * `stack.up()` passes `--skip-preview`, which this command leaves out, so
 * the one `pulumi up` previews, then updates.
 */
async function upWithItsPreview() {
  const cli = await auto.PulumiCommand.get();
  const command = Object.create(cli);
  command.run = (args, ...rest) => cli.run(args[0] === "up" ? args.filter((arg) => arg !== "--skip-preview") : args, ...rest);
  return command;
}

/** The exports of a program file, loaded afresh on each run (its resources register in that run). */
let engineTypeScript;
function programOfFile(file) {
  if (params.engineTypeScript) ({ typescript: engineTypeScript } = registerAsTheEngine());
  else require("ts-node").register({ transpileOnly: true, compilerOptions: { module: "commonjs" } });
  return async () => {
    const path = require.resolve(require("node:path").resolve(__dirname, file));
    delete require.cache[path];
    const { __esModule, ...outputs } = require(path);
    return outputs;
  };
}

const program = params.programFile ? programOfFile(params.programFile) : async () => {
  const ah = require("pulumi-agent-hosting");
  const agent = new ah.Agent("packed", params.agent);
  const existing = ah.Agent.get("existing", params.existingAgent);
  const secret = ah.getSecretSetOutput({ name: params.secretSet });
  const logs = ah.getAgentLogsOutput({ agentName: agent.name, limit: 5 });
  return {
    name: agent.name,
    deploymentId: agent.activeDeploymentId,
    secretFields: secret.fieldNames,
    existingImage: existing.image,
    logLines: logs.logs.apply((lines) => lines.length),
    programNode: process.version,
  };
};

async function main() {
  if (op === "typecheck") {
    process.stdout.write(`\n${JSON.stringify({ ok: true, op, ...typecheckAsTheEngine(params.files) })}\n`);
    return;
  }
  const workspace = await auto.LocalWorkspace.create({
    workDir: __dirname,
    program,
    envVars: {},
    ...(op === "up" ? { pulumiCommand: await upWithItsPreview() } : {}),
    ...(params.programFile ? {} : { projectSettings: { name: "packed-program", runtime: "nodejs" } }),
  });
  const stack = await auto.Stack.createOrSelect("dev", workspace);
  await stack.setAllConfig({
    "agent-hosting:baseUrl": { value: params.baseUrl },
    "agent-hosting:apiKey": { value: params.apiKey, secret: true },
  });
  const onOutput = (s) => process.stderr.write(s);
  let result = {};
  let agentOperations;
  let previewChangeSummary;
  if (op === "up") {
    // One `pulumi up`: its preview first, then the update once that preview succeeded.
    const previewed = agentOperationRecorder();
    const applied = agentOperationRecorder();
    agentOperations = { preview: previewed.ops, update: applied.ops };
    const onEvent = upPhases({ preview: previewed.onEvent, update: applied.onEvent, previewSucceeded: (changes) => (previewChangeSummary = changes) });
    result = await stack.up({ onOutput, onEvent });
  }
  else if (op === "preview") result = await stack.preview({ onOutput, diff: true });
  else if (op === "refresh") result = await stack.refresh({ onOutput });
  else if (op === "destroy") result = await stack.destroy({ onOutput });
  else throw new Error(`unknown operation "${op}"`);
  const outputs = Object.fromEntries(
    Object.entries(result.outputs ?? {}).map(([k, v]) => [k, v.secret ? "[secret]" : v.value]),
  );
  const changeSummary = result.summary?.resourceChanges ?? result.changeSummary ?? {};
  const summary = { ok: true, op, changeSummary, outputs, ...(agentOperations ? { agentOperations } : {}), ...(previewChangeSummary ? { previewChangeSummary } : {}), ...(engineTypeScript ? { engineTypeScript } : {}) };
  process.stdout.write(`\n${JSON.stringify(summary)}\n`);
}

main().catch((error) => {
  process.stdout.write(`\n${JSON.stringify({ ok: false, op, error: String(error?.stderr || error?.message || error) })}\n`);
  process.exitCode = 1;
});
