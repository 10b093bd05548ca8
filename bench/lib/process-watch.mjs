// The provider processes of one operation, read from Linux's /proc every 50
// ms while it runs: their CPU time (/proc/<pid>/stat) and their peak
// resident set (VmHWM in /proc/<pid>/status), the last seen of each process,
// so one that ends keeps what it was last seen with. A process counts when
// its command line matches, it started after the watch did (the other
// side's provider, still closing, does not) and this process started it
// (through the engine), so another program's on the machine never does.
import { readFileSync, readdirSync } from "node:fs";
import { processCpuMs } from "./emulator-process.mjs";

const SAMPLE_MS = 50;

/** Pulumi's dynamic-provider process (`node .../cmd/dynamic-provider/index.js <engine>`). */
export const isDynamicProvider = (cmdline) => cmdline.includes("cmd/dynamic-provider");

/** The processes of the resource plugin `name` installed in a PULUMI_HOME (its launcher, then the Node process it execs). */
export const isPlugin = (name) => (cmdline) => cmdline.includes(`/plugins/resource-${name}-v`);

const parentOf = (pid) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);

/** Whether `pid` descends from this process. */
export function descendsFromThis(pid) {
  for (let p = Number(pid), depth = 0; p > 1 && depth < 16; depth++) {
    p = parentOf(p);
    if (p === process.pid) return true;
  }
  return false;
}

const highWaterKiB = (pid) => Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

/**
 * Starts watching the processes `matches` accepts; `stop()` returns
 * `{ cpuMs, peakMiB, pids }`: their CPU time summed, the largest peak, and
 * which processes were read.
 * @param {(cmdline: string) => boolean} matches
 */
export function watchProcesses(matches) {
  const before = new Set(readdirSync("/proc"));
  const seen = new Map();
  const sample = () => {
    for (const pid of readdirSync("/proc")) {
      if (before.has(pid) || !/^\d+$/.test(pid)) continue;
      try {
        if (!seen.has(pid) && !(matches(readFileSync(`/proc/${pid}/cmdline`, "utf8")) && descendsFromThis(pid))) continue;
        seen.set(pid, { cpuMs: processCpuMs(pid), peakKiB: Math.max(seen.get(pid)?.peakKiB ?? 0, highWaterKiB(pid)) });
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
      const all = [...seen.values()];
      return {
        cpuMs: all.reduce((sum, p) => sum + p.cpuMs, 0),
        peakMiB: Math.round(Math.max(0, ...all.map((p) => p.peakKiB)) / 102.4) / 10,
        pids: [...seen.keys()].map(Number),
      };
    },
  };
}
