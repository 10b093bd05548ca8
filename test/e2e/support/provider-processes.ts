/** The engine's dynamic-provider processes of a stack, found by their working directory (the stack's), for tests that signal them. */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** The pids of the dynamic-provider processes the engine runs for the stack in `dir`. */
export function providerProcessesIn(dir: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === dir && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dynamic-provider");
      } catch {
        return false;
      }
    })
    .map(Number);
}
