// The CLI calls the Automation API makes around an operation that change
// nothing the operation does, left out when what they would find is already
// known. Each one is a `pulumi` process with the passphrase's key derivation
// in some of them, and the end-to-end tests run thousands of operations:
//
// - `pulumi version`, which LocalWorkspace.create runs to learn the CLI's
//   version, when AGENT_HOSTING_PULUMI_CLI_VERSION (set once by the test
//   suite's global setup) names it;
// - `pulumi stack select`, when the stack's checkpoint exists in the file
//   backend (every command names its stack with --stack);
// - `pulumi config set-all`, when it would set the values the stack's config
//   file already got from the same call, and that file is unchanged since.
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
