// The CLI calls the Automation API makes around an operation that change
// nothing the operation does, left out when what they would find is already
// known. Each one is a `pulumi` process with the passphrase's key derivation
// in some of them, and the end-to-end tests run thousands of operations:
//
// - `pulumi version`, which LocalWorkspace.create runs to learn the CLI's
//   version, when AGENT_HOSTING_PULUMI_CLI_VERSION (set once by the test
//   suite's global setup) names it;
// - `pulumi stack select`, when the stack's checkpoint exists in the file
//   backend (every command names its stack with --stack), and before the
//   `pulumi stack init` of a stack that does not (it would only fail);
// - `pulumi config set-all`, when it would set the values the stack's config
//   file already got from the same call, and that file is unchanged since;
// - after an operation, the shown outputs beside the masked ones and the
//   history entry (stack-op.mjs's answer needs neither), and after an up
//   the masked outputs too when the engine already sent them as the stack
//   resource's outputs event.
//
// Nothing is left out on a first operation, a changed config or a changed
// config file, so the shortcuts only ever skip a repetition.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** The CLI in `dir` as the Automation API's command, its version known when the environment names it. */
export async function cliCommand(auto, dir, requireFromRepo) {
  const known = process.env.AGENT_HOSTING_PULUMI_CLI_VERSION;
  if (!known) return auto.PulumiCommand.get({ skipVersionCheck: true });
  const { SemVer } = createRequire(requireFromRepo.resolve("@pulumi/pulumi/package.json"))("semver");
  return new auto.PulumiCommand(join(dir, "pulumi"), new SemVer(known));
}

/** Whether the file backend at `backendDir` holds a checkpoint of `project`'s stack `stack`. */
export function stackExists(backendDir, project, stack) {
  const base = join(backendDir, ".pulumi", "stacks", project, stack);
  return existsSync(`${base}.json`) || existsSync(`${base}.json.gz`);
}

const fileDigest = (path) => (existsSync(path) ? createHash("sha256").update(readFileSync(path)).digest("hex") : "");

/**
 * Sets `config` on the stack unless the last call here set the same values
 * and the stack's config file (`Pulumi.<stack>.yaml` in `workDir`) is as that
 * call left it. The record lives beside the backend, in `stateDir`.
 */
export async function setConfigOnce(stack, config, { workDir, stateDir }) {
  const configFile = join(workDir, `Pulumi.${stack.name}.yaml`);
  const recordFile = join(stateDir, `config-set-${stack.name}.json`);
  // A digest, not the values: the config holds the API key, which no file may.
  const wanted = createHash("sha256").update(JSON.stringify(config)).digest("hex");
  if (existsSync(recordFile)) {
    const record = JSON.parse(readFileSync(recordFile, "utf8"));
    if (record.config === wanted && record.file === fileDigest(configFile)) return;
  }
  await stack.setAllConfig(config);
  writeFileSync(recordFile, JSON.stringify({ config: wanted, file: fileDigest(configFile) }));
}

/** Property values' signature key in engine events, and the secret's value of it. */
const SIGNATURE = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

/**
 * The stack's outputs as `pulumi stack output --json` prints them, from an
 * engine event's: each secret (an object signed as one) as "[secret]".
 * Undefined when they hold another signed value (an asset, a resource),
 * which the CLI prints otherwise.
 */
function maskedOutputs(value) {
  if (Array.isArray(value)) {
    const items = value.map(maskedOutputs);
    return items.includes(undefined) ? undefined : items;
  }
  if (value === null || typeof value !== "object") return value;
  if (SIGNATURE in value) return value[SIGNATURE] === SECRET_SIGNATURE ? "[secret]" : undefined;
  const entries = Object.entries(value).map(([k, v]) => [k, maskedOutputs(v)]);
  return entries.some(([, v]) => v === undefined) ? undefined : Object.fromEntries(entries);
}

/**
 * After an up, a destroy or a refresh the Automation API asks the CLI for the
 * stack's outputs twice (masked, then with --show-secrets) and for the last
 * history entry. stack-op.mjs's answer needs only the masked outputs (a
 * secret one is "[secret]" either way) and the change summary, which the
 * engine already sent as its summary event; so the stack takes the summary
 * from the event, asking the history only if no summary event came, and
 * the outputs from the stack resource's outputs event, reading them once
 * from the CLI only if none came or they hold what the event shows
 * otherwise. Returns `onEvent`, which records that event, and
 * `also(next)`, which records it and passes each event on to `next`.
 */
export function trimAfterOperation(stack) {
  let engineSummary;
  let engineOutputs;
  const onEvent = (event) => {
    if (event.summaryEvent) engineSummary = event.summaryEvent;
    const outputs = event.resOutputsEvent?.metadata;
    if (outputs?.type === "pulumi:pulumi:Stack") engineOutputs = maskedOutputs(outputs.new?.outputs ?? {});
  };
  const askHistory = stack.info.bind(stack);
  stack.info = async (showSecrets) => (engineSummary ? { resourceChanges: engineSummary.resourceChanges } : askHistory(showSecrets));
  stack.workspace.stackOutputs = async (name) => {
    const masked = engineOutputs ?? JSON.parse((await stack.workspace.runPulumiCmd(["stack", "output", "--json", "--stack", name])).stdout);
    return Object.fromEntries(Object.entries(masked).map(([k, value]) => [k, { value, secret: value === "[secret]" }]));
  };
  return {
    onEvent,
    also: (next) => (event) => {
      onEvent(event);
      next(event);
    },
  };
}
