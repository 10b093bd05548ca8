#!/usr/bin/env node
// Writes test/e2e/fixtures/pre-pinning-state/: two stacks deployed by the
// package as it was before image pinning (commit PRE_PINNING_COMMIT, the last
// one before pinning landed), for the upgrade tests of
// test/e2e/image-digests.test.ts (dynamic) and
// test/e2e/image-digests-native.test.ts (native).
//
//   node scripts/write-pre-pinning-state.mjs
//
// It extracts that commit's tree (`git archive`, so the repository needs the
// commit: a shallow clone does not have it, and the committed fixture is what
// the test reads) into a temporary directory, links this repository's
// node_modules into it (the package itself linked to the extracted tree),
// builds it with tsc, starts that commit's emulator with a state file, and
// runs that commit's own scripts/stack-op.mjs `up` of its
// test/e2e/programs/agents.cjs under the real CLI (one Agent on a tag-form
// image), then `pulumi up` of a YAML program on that commit's plugin (the
// same, native). The old package makes no registry request, so the image
// names a placeholder registry host. It saves what `pulumi stack export`
// printed for each and the emulator's state file, with the registry host and
// the emulator's address replaced by placeholders the tests fill in, after
// checking that no file holds the API key, a temporary path or an address.
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { pulumiCliDir } from "./lib/pulumi-env.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(repoRoot, "package.json"));

export const PRE_PINNING_COMMIT = "ee0779861525debebff6aaef11c1e1ada37dfc96";
const OUT_DIR = join(repoRoot, "test/e2e/fixtures/pre-pinning-state");
/** The registry host the old stack's image names; the fixture holds {{REGISTRY_HOST}} in its place. */
const MADE_WITH_REGISTRY = "127.0.0.1:47999";
const API_KEY = "pre-pinning-SECRET-key-5e1b";
/** The native stack's YAML program: the test runs it again, its registry host filled in. */
const NATIVE_PROGRAM = `name: digests-upgrade\nruntime: yaml\nresources:\n  old:\n    type: agent-hosting:index:Agent\n    properties:\n      serviceName: native-digest-old\n      image: ${MADE_WITH_REGISTRY}/voice/old:main\n`;
/** The program's parameters: what the test's program must be given again for a clean preview. */
const PARAMS = { agents: [{ resource: "old", args: { serviceName: "digest-old", image: `${MADE_WITH_REGISTRY}/voice/old:main` } }] };

/** The commit's tree in a new directory, with this repository's node_modules and itself as `pulumi-agent-hosting`. */
function extractTree() {
  const dir = mkdtempSync(join(tmpdir(), "pre-pinning-"));
  const archive = join(dir, "tree.tar");
  execFileSync("git", ["-C", repoRoot, "archive", "--output", archive, PRE_PINNING_COMMIT]);
  execFileSync("tar", ["-xf", archive, "-C", dir]);
  rmSync(archive);
  const modules = join(dir, "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(join(repoRoot, "node_modules"))) {
    if (entry === "pulumi-agent-hosting" || entry.startsWith(".")) continue;
    symlinkSync(join(repoRoot, "node_modules", entry), join(modules, entry));
  }
  symlinkSync("..", join(modules, "pulumi-agent-hosting"));
  return dir;
}

const run = promisify(execFile);

/**
 * The native stack: the old commit's plugin, packed by its own
 * scripts/pack-plugin.mjs and installed with `pulumi plugin install` as a
 * user installs it, runs NATIVE_PROGRAM with Pulumi YAML's language host
 * (scripts/pulumi-yaml.sh) and the cached CLI; returns its export.
 */
async function deployNative(tree, emulator) {
  // The extracted tree is no git repository: the archive entries' time is the commit's, given as SOURCE_DATE_EPOCH.
  const commitTime = execFileSync("git", ["-C", repoRoot, "log", "-1", "--format=%ct", PRE_PINNING_COMMIT], { encoding: "utf8" }).trim();
  const packed = await run(process.execPath, [join(tree, "scripts/pack-plugin.mjs"), join(tree, "plugin-out")], {
    cwd: tree,
    env: { ...process.env, SOURCE_DATE_EPOCH: commitTime },
    encoding: "utf8",
  });
  const tarball = packed.stdout.trim().split("\n").at(-1);
  const dir = join(tree, ".e2e-work", "native");
  const stateDir = join(dir, ".state");
  mkdirSync(join(stateDir, "backend"), { recursive: true });
  mkdirSync(join(stateDir, "pulumi-home"), { recursive: true });
  writeFileSync(join(dir, "Pulumi.yaml"), NATIVE_PROGRAM);
  const yamlHostDir = execFileSync("bash", [join(repoRoot, "scripts/pulumi-yaml.sh")], { encoding: "utf8" }).trim().split("\n").at(-1);
  const path = (process.env.PATH ?? "").split(":").filter((entry) => !entry.includes("node_modules"));
  const env = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${join(stateDir, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "agent-hosting-local-passphrase",
    PULUMI_HOME: join(stateDir, "pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PATH: [yamlHostDir, pulumiCliDir(), ...path].join(":"),
  };
  delete env.AGENT_HOSTING_PIN_IMAGE_DIGESTS;
  const version = JSON.parse(readFileSync(join(tree, "package.json"), "utf8")).version;
  const pulumi = (...args) => run("pulumi", args, { cwd: dir, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  await pulumi("plugin", "install", "resource", "agent-hosting", version, "--file", tarball);
  await pulumi("stack", "init", "dev");
  await pulumi("config", "set", "agent-hosting:baseUrl", emulator.url);
  await pulumi("config", "set", "--secret", "agent-hosting:apiKey", API_KEY);
  await pulumi("up", "--yes");
  return JSON.parse((await pulumi("stack", "export")).stdout);
}

/**
 * Runs the old commit's stack-op.mjs without blocking this process (its
 * emulator answers the provider meanwhile); returns the JSON of its last
 * stdout line.
 */
async function stackOp(tree, op, args) {
  const env = { ...process.env };
  delete env.AGENT_HOSTING_PIN_IMAGE_DIGESTS;
  const done = await run(process.execPath, [join(tree, "scripts/stack-op.mjs"), op, ...args], {
    cwd: tree,
    env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  }).catch((error) => error);
  const result = JSON.parse(String(done.stdout).trim().split("\n").at(-1));
  if (!result.ok) throw new Error(`stack-op ${op} failed: ${result.error}\n${done.stderr}`);
  return result;
}

/**
 * The export without where in the making program each resource was registered
 * (`sourcePosition`, `stackTrace`: the extracted tree's temporary paths); the
 * engine writes them afresh on the next step that touches the resource.
 */
function withoutSourcePositions(exported) {
  for (const resource of exported.deployment?.resources ?? []) {
    delete resource.sourcePosition;
    delete resource.stackTrace;
  }
  return exported;
}

function replaceAll(text, replacements) {
  return replacements.reduce((acc, [from, to]) => acc.split(from).join(to), text);
}

async function main() {
  const tree = extractTree();
  try {
    console.error(`building ${PRE_PINNING_COMMIT} in ${tree}`);
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: tree, stdio: "inherit" });
    const { startEmulator } = require(join(tree, "dist/emulator/index.js"));
    const stateFile = join(tree, "emulator-state.json");
    const emulator = await startEmulator({ apiKey: API_KEY, readyAfterMs: 100, stateFile });
    const workDir = join(tree, ".e2e-work", "pre-pinning");
    const common = [
      "--work-dir",
      workDir,
      "--program",
      join(tree, "test/e2e/programs/agents.cjs"),
      "--config",
      JSON.stringify({ "agent-hosting:baseUrl": { value: emulator.url }, "agent-hosting:apiKey": { value: API_KEY, secret: true } }),
    ];
    let exported;
    let nativeExported;
    try {
      await stackOp(tree, "up", [...common, "--params", JSON.stringify(PARAMS)]);
      exported = withoutSourcePositions((await stackOp(tree, "export", common)).deployment);
      nativeExported = withoutSourcePositions(await deployNative(tree, emulator));
    } finally {
      await emulator.close();
    }
    const replacements = [
      [MADE_WITH_REGISTRY, "{{REGISTRY_HOST}}"],
      [emulator.url, "{{EMULATOR_URL}}"],
    ];
    const files = {
      "params.json": replaceAll(`${JSON.stringify(PARAMS, null, 2)}\n`, replacements),
      "stack-export.json": replaceAll(`${JSON.stringify(exported, null, 2)}\n`, replacements),
      "native-stack-export.json": replaceAll(`${JSON.stringify(nativeExported, null, 2)}\n`, replacements),
      "native-Pulumi.yaml": replaceAll(NATIVE_PROGRAM, replacements),
      "emulator-state.json": replaceAll(readFileSync(stateFile, "utf8"), replacements),
    };
    for (const [name, text] of Object.entries(files)) {
      for (const forbidden of [API_KEY, tree, tmpdir(), "127.0.0.1:"]) {
        const at = text.indexOf(forbidden);
        if (at >= 0) throw new Error(`${name} holds ${forbidden}: ${text.slice(Math.max(0, at - 300), at + 200)}`);
      }
    }
    mkdirSync(OUT_DIR, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(OUT_DIR, name), text);
    console.error(`wrote ${Object.keys(files).join(", ")} to ${OUT_DIR}`);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

await main();
