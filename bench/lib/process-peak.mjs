// The peak memory of the provider processes the engine starts for one
// operation, read from Linux's /proc: each process's VmHWM (its resident
// set's high-water mark), sampled until the process ends; the largest seen
// is the figure. Which processes count is given by their command line:
// Pulumi's dynamic-provider process (`node .../cmd/dynamic-provider/index.js
// <engine-address>`, the same binary for the agents and for the dynamic
// control) or a plugin installed in a PULUMI_HOME (`.../plugins/resource-<name>-v<version>/...`).
import { readFileSync, readdirSync } from "node:fs";

const SAMPLE_MS = 100;

/** Whether a process's command line (from /proc/<pid>/cmdline) is Pulumi's dynamic-provider process. */
export const isDynamicProvider = (cmdline) => cmdline.includes("cmd/dynamic-provider");

/** A matcher of the processes of the installed resource plugin `name` (the launcher, then the Node process it execs). */
export const isPlugin = (name) => (cmdline) => cmdline.includes(`/plugins/resource-${name}-v`);

/** Whether a process's command line is any resource plugin installed in a PULUMI_HOME (ours or the native control). */
export const isInstalledPlugin = (cmdline) => cmdline.includes("/plugins/resource-");

/** The parent's pid, from /proc/<pid>/stat (the field after the command's closing parenthesis and the state). */
const parentOf = (pid) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);

/** Whether `pid` descends from this process (the bench starts the CLI, which starts the providers). */
function isOurs(pid) {
  for (let p = Number(pid), depth = 0; p > 1 && depth < 16; depth++) {
    p = parentOf(p);
    if (p === process.pid) return true;
  }
  return false;
}

/** The processes this bench started whose command line `matches` accepts; another program's on the machine does not count. */
function pidsOf(matches) {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (matches(readFileSync(`/proc/${entry}/cmdline`, "utf8")) && isOurs(entry)) pids.push(entry);
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

/**
 * Starts sampling the processes `matches` accepts (the dynamic provider's by
 * default) that start after this call: one still running from an earlier
 * operation, e.g. the other side's provider as the engine shuts it down,
 * is not this operation's. `stop()` returns the largest high-water mark
 * seen, in MiB (0 when no such process ran), and the pids it was read from.
 */
export function watchProviderPeak(matches = isDynamicProvider) {
  const before = new Set(pidsOf(matches));
  const seen = new Set();
  let peakKiB = 0;
  const sample = () => {
    for (const pid of pidsOf(matches)) {
      if (before.has(pid)) continue;
      seen.add(pid);
      peakKiB = Math.max(peakKiB, highWaterKiB(pid));
    }
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return Math.round((peakKiB / 1024) * 10) / 10;
    },
    pids: () => [...seen].map(Number),
  };
}
