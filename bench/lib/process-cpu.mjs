// CPU time of the processes the engine runs for an operation, read from
// Linux's /proc every 50 ms while the operation runs, so a process that ends
// keeps the last time it was seen with (a provider is idle by then, the
// engine closing it once the operation is done). Only processes this one
// started (through the engine) count, not other programs' on the machine.
// `watchProcessCpu`: by kind, the `pulumi` CLI (the engine) and the provider
// processes, Pulumi's dynamic-provider process or an installed plugin
// (bench/profile.mjs); `watchMatchingCpu`: the
// processes a command-line matcher accepts that start during the operation
// (the preview figures' provider CPU per resource).
import { readFileSync, readdirSync } from "node:fs";
import { basename } from "node:path";
import { processCpuMs } from "./emulator-process.mjs";
import { isDynamicProvider, isInstalledPlugin } from "./process-peak.mjs";

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
  const kind = isDynamicProvider(cmdline) || isInstalledPlugin(cmdline) ? "provider" : basename(cmdline.split("\0")[0] ?? "") === "pulumi" ? "engine" : undefined;
  return kind !== undefined && descendsFromThis(pid) ? kind : undefined;
}

/**
 * Samples every 50 ms, until `stop()`, the CPU time of each process
 * `kindOf(pid)` gives a kind (undefined: not counted), skipping the pids in
 * `skip`; `stop()` returns the last `{ kind, ms }` seen of each.
 * @param {(pid: string) => string | undefined} kindOf
 * @param {ReadonlySet<string>} [skip]
 */
function sampleCpu(kindOf, skip = new Set()) {
  const last = new Map();
  const sample = () => {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid || skip.has(entry)) continue;
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
      return [...last.values()];
    },
  };
}

/** Starts sampling; `stop()` returns the CPU ms of each kind, summed over its processes. */
export function watchProcessCpu() {
  const cpu = sampleCpu(kindOf);
  return {
    stop() {
      const total = { engine: 0, provider: 0 };
      for (const { kind, ms } of cpu.stop()) total[kind] += ms;
      return total;
    },
  };
}

/**
 * Starts sampling the processes this one starts from now on whose command
 * line `matches` (e.g. isDynamicProvider, or isPlugin(name) of
 * bench/lib/process-peak.mjs): a process already running, such as the
 * provider of the operation before as the engine shuts it down, does not
 * count. `stop()` returns their CPU ms, summed.
 * @param {(cmdline: string) => boolean} matches
 */
export function watchMatchingCpu(matches) {
  const before = new Set(readdirSync("/proc"));
  const cpu = sampleCpu((pid) => (matches(readFileSync(`/proc/${pid}/cmdline`, "utf8")) && descendsFromThis(pid) ? "matched" : undefined), before);
  return { stop: () => cpu.stop().reduce((sum, { ms }) => sum + ms, 0) };
}
