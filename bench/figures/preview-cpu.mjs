// The provider process's CPU time per resource in a no-op `pulumi preview`:
// the dynamic provider's process (Pulumi's `cmd/dynamic-provider`, which
// loads this package's provider) and the native plugin's, each on a stack of
// `ctx.agents` agents brought up once, read from /proc/<pid>/stat while the
// preview runs and divided by the resource count. The Agent-shaped
// control's provider process is measured in the same runs and recorded
// beside the dynamic figure (`controlMsPerResource`): what the same process
// uses with none of this package's work. Each run previews the three
// stacks, the order alternating; one untimed preview of each comes first.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pluginVersion } from "../../scripts/lib/plugin-package.mjs";
import { repoRoot } from "../../scripts/lib/pulumi-env.mjs";
import { processCpuMs } from "../lib/emulator-process.mjs";
import { descendsFromThis } from "../lib/process-cpu.mjs";
import { agentShapedStack, settle, sizedId, writeAgentSample } from "../lib/engine-stacks.mjs";
import { isDynamicProvider } from "../lib/process-peak.mjs";
import { declaredFigure, ruleTable } from "../lib/rules.mjs";
import { quiet, stackFor } from "../lib/stacks.mjs";
import { round } from "../lib/stats.mjs";

const SAMPLE_MS = 50;
/**
 * The sanity bar, ms of the provider process's CPU per resource: about
 * twice the most either process used in runs on a busy 2-core machine (7.3
 * ms; the control's process used 6.5 to 7.4 ms in the same runs). The
 * process loads the SDK, gRPC and protobuf (about 1 s of CPU, 2.5 ms per
 * resource at 400) and turns two calls per resource to and from protobuf;
 * this package's own check, diff and decoding are about 0.2 ms of it. The
 * figure is what is reported; the bar catches a provider that does
 * per-resource work it should not (a request, a schema built per call).
 */
const LIMIT_MS = 15;

const PER_RESOURCE = {
  rule: { method: "max", combine: "value", compare: "<=", limit: LIMIT_MS },
  bar: `≤ ${LIMIT_MS} in every run (a sanity bar of this bench: the figure itself is what is reported)`,
};

/** The rule and the bar of every figure this module makes, by id (bench/lib/rules.mjs). */
export const RULES = ruleTable({}, { "preview-cpu-dynamic": () => PER_RESOURCE, "preview-cpu-native": () => PER_RESOURCE });

/** The native plugin's process: the launcher execs Node on the plugin's bundle. */
const isNativePlugin = (cmdline) => cmdline.includes("lib/native/plugin.js");

/**
 * Starts sampling the processes this one started whose command line
 * `matches`, so another program's providers on the machine do not count;
 * `stop()` returns their CPU ms, summed. A process that ends keeps the last
 * time it was seen with (as in bench/lib/process-cpu.mjs): the
 * provider is idle by then, the engine closing it once the preview is done.
 */
function watchCpu(matches) {
  const last = new Map();
  const sample = () => {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      try {
        if (!last.has(entry) && !(matches(readFileSync(`/proc/${entry}/cmdline`, "utf8")) && descendsFromThis(entry))) continue;
        last.set(entry, processCpuMs(entry));
      } catch {
        // ended between the listing and the read
      }
    }
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return [...last.values()].reduce((a, b) => a + b, 0);
    },
  };
}

/** A PULUMI_HOME with the plugin installed from its tarball, as a user installs it (as bench/native.mjs does). */
function homeWithPlugin(dir) {
  const home = join(dir, "pulumi-home");
  mkdirSync(home, { recursive: true });
  const tarball = execFileSync(process.execPath, [join(repoRoot, "scripts/pack-plugin.mjs"), join(dir, "plugin")], { encoding: "utf8" }).trim();
  execFileSync("pulumi", ["plugin", "install", "resource", "agent-hosting", pluginVersion(), "--file", tarball], {
    env: { ...process.env, PULUMI_HOME: home },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return home;
}

export async function previewCpuFigures(ctx) {
  const n = ctx.agents;
  ctx.log(`provider CPU per resource in a no-op pulumi preview of ${n}: dynamic provider, native plugin, Agent-shaped control; ${ctx.pairs} runs`);
  const opts = { ...quiet, parallel: n };
  const home = homeWithPlugin(join(ctx.work, "preview-cpu-home"));
  const dynamic = await stackFor(ctx.work, `preview-cpu-dynamic-${n}`, "agents.cjs", { count: n, prefix: "cpu-dyn" }, ctx.emulator);
  await dynamic.stack.up(opts);
  const sampleFile = writeAgentSample(ctx, dynamic, `preview-cpu-${n}`);
  const sides = {
    dynamic: { handle: dynamic, matches: isDynamicProvider },
    native: {
      handle: await stackFor(ctx.work, `preview-cpu-native-${n}`, "native-agents.cjs", { count: n, prefix: "cpu-nat" }, ctx.emulator, {
        PULUMI_HOME: home,
        PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
      }),
      matches: isNativePlugin,
    },
    control: { handle: await agentShapedStack(ctx, `preview-cpu-shaped-${n}`, n, sampleFile, 0), matches: isDynamicProvider },
  };
  await sides.native.handle.stack.up(opts);
  await sides.control.handle.stack.up(opts);
  for (const { handle } of Object.values(sides)) await handle.stack.preview(opts); // untimed warm-up
  const perResource = { dynamic: [], native: [], control: [] };
  const order = Object.keys(sides);
  for (let i = 0; i < ctx.pairs; i++) {
    for (const key of i % 2 === 0 ? order : [...order].reverse()) {
      settle();
      const cpu = watchCpu(sides[key].matches);
      await sides[key].handle.stack.preview(opts);
      perResource[key].push(round(cpu.stop() / n));
    }
    ctx.log(`preview CPU run ${i + 1}/${ctx.pairs}, ms per resource: dynamic ${perResource.dynamic[i]}, native ${perResource.native[i]}, control ${perResource.control[i]}`);
  }
  for (const { handle } of Object.values(sides)) await handle.stack.destroy(opts);
  return [
    declaredFigure(RULES, {
      id: sizedId("preview-cpu-dynamic", n),
      name: `dynamic provider process CPU per resource in a no-op pulumi preview of ${n} agents`,
      unit: "ms",
      samples: perResource.dynamic,
      extra: { controlMsPerResource: perResource.control },
    }),
    declaredFigure(RULES, {
      id: sizedId("preview-cpu-native", n),
      name: `native plugin process CPU per resource in a no-op pulumi preview of ${n} agents`,
      unit: "ms",
      samples: perResource.native,
    }),
  ];
}
