/**
 * The bench's peak-memory watch (bench/lib/process-peak.mjs) reads the
 * processes of one side only: those whose command line matches, that start
 * after the watch starts, and that this process started, so neither the
 * other side's provider nor another program's counts (Linux /proc).
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isDynamicProvider, isInstalledPlugin, isPlugin, watchProviderPeak } from "../../bench/lib/process-peak.mjs";

const HOLD = "setTimeout(() => undefined, 1500)";

/** A Node process holding ~`mib` MiB for 1.5 s, whose command line carries `marker`; resolves when it exits. */
function holder(marker: string, mib: number, detached = false) {
  const script = `const b = Buffer.alloc(${mib} * 1024 * 1024, 1); ${HOLD}; void b;`;
  if (!detached) {
    const child = spawn(process.execPath, ["-e", script, marker], { stdio: "ignore" });
    return { pid: child.pid, exited: new Promise((resolve) => child.once("exit", resolve)) };
  }
  // Started by a shell that exits at once: the process is reparented, no longer this one's descendant.
  const shell = spawn("sh", ["-c", `"${process.execPath}" -e '${script}' ${marker} &`], { stdio: "ignore" });
  return { pid: undefined, exited: new Promise((resolve) => setTimeout(resolve, 1700)).then(() => shell.pid) };
}

describe.runIf(process.platform === "linux")("watchProviderPeak", () => {
  it("counts the matching processes this process starts after the watch starts, and no other", async () => {
    const matches = (cmdline: string) => cmdline.includes("bench-peak-test-");
    const earlier = holder("bench-peak-test-earlier", 200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const watch = watchProviderPeak(matches);
    const stranger = holder("bench-peak-test-stranger", 300, true);
    const ours = holder("bench-peak-test-ours", 40);
    await Promise.all([earlier.exited, stranger.exited, ours.exited]);
    const peak = watch.stop();
    expect(watch.pids()).toEqual([ours.pid]);
    expect(peak).toBeGreaterThan(40);
    expect(peak).toBeLessThan(200);
  }, 20_000);

  it("tells the dynamic provider and each installed plugin by their command lines", () => {
    expect(isDynamicProvider("node\x00/x/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js\x00127.0.0.1:1")).toBe(true);
    const ours = isPlugin("agent-hosting");
    expect(ours("node\x00/h/.pulumi/plugins/resource-agent-hosting-v0.1.0/lib/native/plugin.js\x00127.0.0.1:1")).toBe(true);
    expect(ours("node\x00/h/.pulumi/plugins/resource-agent-shaped-v0.0.1/lib/plugin.js\x00127.0.0.1:1")).toBe(false);
    expect(isPlugin("agent-shaped")("node\x00/h/.pulumi/plugins/resource-agent-shaped-v0.0.1/lib/plugin.js")).toBe(true);
    expect(isInstalledPlugin("node\x00/h/.pulumi/plugins/resource-agent-shaped-v0.0.1/lib/plugin.js")).toBe(true);
    expect(isInstalledPlugin("node\x00/h/.pulumi/plugins/resource-agent-hosting-v0.1.0/lib/native/plugin.js")).toBe(true);
    expect(isInstalledPlugin("/usr/bin/pulumi\x00preview\x00--stack\x00bench")).toBe(false);
  });
});
