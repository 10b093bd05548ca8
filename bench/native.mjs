// Bench figures of the native provider plugin, for bench/run.mjs to call:
//
//   benchNativePreview({ emulator, work, runs, agents, log, home })
//     the no-op `pulumi preview` of `agents` agents through the native plugin
//     against the same program through the dynamic provider, in `runs`
//     pairs of mirrored previews (bench/lib/engine-stacks.mjs's previewPairs) (bar: ≤ 1.0 ×, since no provider code is serialized
//     into the state the engine reads);
//   benchPluginColdStart({ runs, log })
//     the plugin's cold start: from spawning it to its first answered RPC
//     (GetPluginInfo), for the built package (dist/hosts/grpc/plugin-bin.js) and for
//     the bundle inside the plugin tarball.
//
// Each returns figures as { name, values, unit, bar, pass(median), extra }.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packPlugin, pluginVersion } from "../scripts/lib/plugin-package.mjs";
import { repoRoot, usePulumiCli } from "../scripts/lib/pulumi-env.mjs";
import { freshRequire, openStack } from "../scripts/stack-op.mjs";
import { previewPairs, sideTimes } from "./lib/engine-stacks.mjs";
import { median } from "./lib/stats.mjs";

const require = createRequire(join(repoRoot, "package.json"));
const quiet = { onOutput: () => undefined };

/** A PULUMI_HOME with the plugin installed from its tarball, as a user installs it. */
export function homeWithPlugin(dir) {
  usePulumiCli();
  const home = join(dir, "pulumi-home");
  mkdirSync(home, { recursive: true });
  const tarball = execFileSync(process.execPath, [join(repoRoot, "scripts/pack-plugin.mjs"), join(dir, "plugin")], { encoding: "utf8" }).trim();
  execFileSync("pulumi", ["plugin", "install", "resource", "agent-hosting", pluginVersion(), "--file", tarball], {
    env: { ...process.env, PULUMI_HOME: home },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return home;
}

async function stack(work, name, programFile, params, emulator, env = {}) {
  return openStack({
    workDir: join(work, name),
    stackName: "bench",
    projectName: `bench-${name}`,
    program: async () => freshRequire(join(repoRoot, "bench/programs", programFile))(params),
    env,
    config: {
      "agent-hosting:baseUrl": emulator.url,
      "agent-hosting:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
}

export async function benchNativePreview({ emulator, work, runs = 3, agents = 50, log = () => undefined, home = homeWithPlugin(join(work, "native-home")) }) {
  log(`no-op preview of ${agents} agents: native plugin vs dynamic provider`);
  const native = await stack(work, "preview-native", "native-agents.cjs", { count: agents, prefix: "nat" }, emulator, {
    PULUMI_HOME: home,
    PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
  });
  const dynamic = await stack(work, "preview-dynamic", "agents.cjs", { count: agents, prefix: "dyn" }, emulator);
  const opts = { ...quiet, parallel: agents };
  await native.stack.up(opts);
  await dynamic.stack.up(opts);
  // One untimed round first, then pairs of previews in mirrored order, the first side alternating.
  await dynamic.stack.preview(opts);
  await native.stack.preview(opts);
  const pairs = await previewPairs(
    { pairs: runs, log },
    { native, dynamic },
    opts,
    (ms, i, _beside, timings) => `pair ${i + 1}: native ${sideTimes(ms, timings, "native")} ms, dynamic ${sideTimes(ms, timings, "dynamic")} ms`,
  );
  const nativeMs = pairs.map((p) => p.ms.native);
  const dynamicMs = pairs.map((p) => p.ms.dynamic);
  await native.stack.destroy(opts);
  await dynamic.stack.destroy(opts);
  return [
    {
      name: `no-op pulumi preview of ${agents} agents, native plugin / dynamic provider`,
      values: nativeMs.map((n, i) => n / dynamicMs[i]),
      unit: "×",
      bar: "≤ 1.0",
      pass: (m) => m <= 1.0,
      extra: { nativeMs: nativeMs.map(Math.round), dynamicMs: dynamicMs.map(Math.round) },
    },
  ];
}

/** Milliseconds from spawning `command` to the answer of its first GetPluginInfo. */
async function coldStart(command, args) {
  const grpc = require("@grpc/grpc-js");
  const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb");
  const { Empty } = require("google-protobuf/google/protobuf/empty_pb");
  const start = performance.now();
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise((resolve, reject) => {
      child.stdout.once("data", (d) => resolve(d.toString().trim()));
      child.once("exit", (code) => reject(new Error(`plugin exited ${code} before listening`)));
    });
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    await new Promise((resolve, reject) => client.getPluginInfo(new Empty(), (e) => (e ? reject(e) : resolve())));
    const ms = performance.now() - start;
    client.close();
    return ms;
  } finally {
    child.kill();
  }
}

export async function benchPluginColdStart({ runs = 5, log = () => undefined } = {}) {
  log(`plugin cold start, ${runs} times each: built package and tarball bundle`);
  const dir = mkdtempSync(join(tmpdir(), "agent-hosting-coldstart-"));
  try {
    const tarball = await packPlugin(dir);
    execFileSync("tar", ["-xzf", tarball, "-C", dir]);
    const dist = [];
    const bundle = [];
    for (let run = 0; run < runs; run++) {
      dist.push(await coldStart(process.execPath, [join(repoRoot, "dist/hosts/grpc/plugin-bin.js")]));
      bundle.push(await coldStart(join(dir, "pulumi-resource-agent-hosting"), []));
    }
    const facts = { node: process.version, bundleBytes: readFileSync(join(dir, "lib/native/plugin.js")).length, lazyFiles: readdirSync(join(dir, "lib/native")).length - 1 };
    log(`cold start: dist ${Math.round(median(dist))} ms, bundle ${Math.round(median(bundle))} ms`);
    return [
      { name: "native plugin cold start to first answered RPC, built package", values: dist, unit: "ms", bar: "reported", pass: () => true, extra: facts },
      { name: "native plugin cold start to first answered RPC, tarball bundle", values: bundle, unit: "ms", bar: "reported", pass: () => true, extra: facts },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
