// CPU time of the processes the engine runs for an operation, by kind: the
// `pulumi` CLI (the engine) and Pulumi's dynamic-provider processes, read
// from Linux's /proc every 50 ms while the operation runs, so a process that
// ends keeps the last time it was seen with. Only processes this one started
// (through the engine) count, not other programs' on the machine.
import { readFileSync, readdirSync } from "node:fs";
import { basename } from "node:path";
import { processCpuMs } from "./emulator-process.mjs";
import { isDynamicProvider } from "./process-peak.mjs";

const SAMPLE_MS = 50;

/** The parent of a process (field 4 of /proc/<pid>/stat). */
const parentOf = (pid) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1];

/** Whether a process was started by this one, through any number of others (the engine starts the provider). */
export function descendsFromThis(pid) {
  for (let at = parentOf(pid), depth = 0; at !== "0" && depth < 16; at = parentOf(at), depth++) {
    if (Number(at) === process.pid) return true;
  }
  return false;
}

/** "engine", "provider", or undefined for a process of another kind or another program's. */
function kindOf(pid) {
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  const kind = isDynamicProvider(cmdline) ? "provider" : basename(cmdline.split("\0")[0] ?? "") === "pulumi" ? "engine" : undefined;
  return kind !== undefined && descendsFromThis(pid) ? kind : undefined;
}

/** Starts sampling; `stop()` returns the CPU ms of each kind, summed over its processes. */
export function watchProcessCpu() {
  const last = new Map();
  const sample = () => {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      try {
        const kind = last.get(entry)?.kind ?? kindOf(entry);
        if (kind) last.set(entry, { kind, ms: processCpuMs(entry) });
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
      const total = { engine: 0, provider: 0 };
      for (const { kind, ms } of last.values()) total[kind] += ms;
      return total;
    },
  };
}
