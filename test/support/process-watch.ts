/**
 * Which executable the processes of an operation ran: samples /proc while
 * the operation runs and records, for each process whose command line holds
 * `marker`, the binary it executes (/proc/<pid>/exe). The tests use it to
 * show that a provider process started by the engine ran on the Node first
 * on PATH; they keep such a process alive for seconds (an agent's readiness
 * wait), far longer than the sampling interval.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface SeenProcess {
  pid: number;
  exe: string;
  cmdline: string;
}

export interface ProcessWatch {
  /** Stops sampling; returns every matching process seen, once each. */
  stop(): SeenProcess[];
}

export function watchProcesses(marker: string, everyMs = 100): ProcessWatch {
  const seen = new Map<number, SeenProcess>();
  const sample = () => {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      if (seen.has(pid)) continue;
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
        if (cmdline.includes(marker)) seen.set(pid, { pid, exe: readlinkSync(`/proc/${pid}/exe`), cmdline });
      } catch {
        // The process ended between the listing and the read.
      }
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return [...seen.values()];
    },
  };
}
