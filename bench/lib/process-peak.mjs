// The peak memory of the dynamic provider processes the engine starts
// (`node .../cmd/dynamic-provider/index.js <engine-address>`), read from
// Linux's /proc: each process's VmHWM (its resident set's high-water mark),
// sampled until the process ends; the largest seen is the figure.
import { readFileSync, readdirSync } from "node:fs";

const SAMPLE_MS = 100;

/** Whether a process's command line (from /proc/<pid>/cmdline) is Pulumi's dynamic-provider process. */
export const isDynamicProvider = (cmdline) => cmdline.includes("cmd/dynamic-provider");

function providerPids() {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (isDynamicProvider(readFileSync(`/proc/${entry}/cmdline`, "utf8"))) pids.push(entry);
    } catch {
      // ended between the listing and the read
    }
  }
  return pids;
}

function highWaterKiB(pid) {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Starts sampling; `stop()` returns the largest high-water mark seen, in MiB (0 when no provider process ran). */
export function watchProviderPeak() {
  let peakKiB = 0;
  const sample = () => {
    for (const pid of providerPids()) peakKiB = Math.max(peakKiB, highWaterKiB(pid));
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return Math.round((peakKiB / 1024) * 10) / 10;
    },
  };
}
