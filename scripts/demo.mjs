#!/usr/bin/env node
// The main job: emulator + a preview and `pulumi up` of examples/typescript, its outputs, a
// preview that shows no changes, then destroy. `--keep` leaves the stack and
// the emulator running and prints how to use them.
//
//   npm run demo            (builds first)
//   npm run demo -- --keep
import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pulumiCliDir, repoRoot } from "./lib/pulumi-env.mjs";
import { freshRequire, offlineEnv, openStack } from "./stack-op.mjs";

const { values } = parseArgs({ options: { keep: { type: "boolean", default: false } } });
const require = createRequire(join(repoRoot, "package.json"));
const step = (text) => console.log(`\n\x1b[1m==> ${text}\x1b[0m`);

await import("./link-self.mjs");
const { startEmulator } = require("./dist/index.js");

step("Providing the pulumi CLI (built from source on the first run, then cached)");
const cliDir = pulumiCliDir();
console.log(`pulumi CLI: ${cliDir}/pulumi`);

step("Starting the Agent Hosting Service emulator");
const emulator = await startEmulator({
  port: 0,
  readyAfterMs: 1500,
});
console.log(`agent-hosting-emulator listening on ${emulator.url}`);

const workDir = join(repoRoot, ".e2e-work", values.keep ? "demo-kept" : `demo-${Date.now().toString(36)}`);
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });

require("ts-node").register({ transpileOnly: true, compilerOptions: { module: "commonjs" } });
const program = async () => ({ ...freshRequire(join(repoRoot, "examples/typescript/index.ts")) });

step("Creating stack 'demo' on a local file backend");
const { stack } = await openStack({
  workDir,
  stackName: "demo",
  projectName: "agent-hosting-typescript",
  program,
  config: {
    "agent-hosting:baseUrl": emulator.url,
    "agent-hosting:apiKey": { value: emulator.apiKey, secret: true },
    // The example's image (registry.example.com/...) is in no registry: pinning it to a digest, on by default, is off here.
    "agent-hosting:pinImageDigests": "false",
  },
});

let failed = false;
try {
  // `pulumi up` previews first, then updates: the same two steps here, the preview of a new stack included.
  step("pulumi preview (examples/typescript, a new stack: nothing exists yet)");
  await stack.preview({ onOutput: (s) => process.stdout.write(s), color: "always" });

  step("pulumi up (examples/typescript)");
  const up = await stack.up({ onOutput: (s) => process.stdout.write(s), color: "always" });
  const out = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));

  step("Outputs");
  console.log(`agent:              ${out.agentName} (ready: ${out.ready})`);
  console.log(`deployment id:      ${out.deploymentId}`);
  console.log("manifest:");
  console.log(JSON.stringify(out.manifest, null, 2).replace(/^/gm, "  "));
  console.log("newest log lines:");
  for (const line of out.newestLogLines ?? []) console.log(`  ${line}`);

  step("pulumi preview (expecting no changes)");
  const preview = await stack.preview({ onOutput: (s) => process.stdout.write(s), color: "always" });
  const changes = Object.entries(preview.changeSummary).filter(([k, n]) => k !== "same" && n > 0);
  if (changes.length > 0) {
    failed = true;
    console.error(`preview reported changes after up: ${JSON.stringify(preview.changeSummary)}`);
  } else {
    console.log(`no changes (${preview.changeSummary.same ?? 0} unchanged)`);
  }

  if (values.keep) {
    const env = offlineEnv(join(workDir, ".state"));
    step("Kept running (--keep). Press Ctrl-C to stop the emulator.");
    console.log(`The emulator serves ${emulator.url} (API key for this local emulator only: ${emulator.apiKey}).
In another shell:
  export PATH="${cliDir}:$PATH"
  export PULUMI_BACKEND_URL="${env.PULUMI_BACKEND_URL}" PULUMI_HOME="${env.PULUMI_HOME}"
  export PULUMI_CONFIG_PASSPHRASE="${env.PULUMI_CONFIG_PASSPHRASE}" PULUMI_SKIP_UPDATE_CHECK=true
  cd "${workDir}"
  pulumi stack output --stack demo      # the outputs
  pulumi stack export --stack demo      # the state: no API key in it
  pulumi refresh --stack demo --yes     # read the agent back from the emulator
  curl -s -H "Authorization: Bearer ${emulator.apiKey}" ${emulator.url}/agents/${out.agentName}
Run \`npm run demo\` without --keep to create, check and destroy in one go.`);
    await new Promise((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
  } else {
    step("pulumi destroy");
    await stack.destroy({ onOutput: (s) => process.stdout.write(s), color: "always" });
    await stack.workspace.removeStack("demo");
  }
} catch (error) {
  failed = true;
  console.error(`\ndemo failed: ${error?.message ?? error}`);
} finally {
  await emulator.close();
  if (!values.keep) rmSync(workDir, { recursive: true, force: true });
}
step(failed ? "Demo failed" : "Demo finished: the agent was created, read back, left unchanged by a preview, and destroyed");
process.exit(failed ? 1 : 0);
