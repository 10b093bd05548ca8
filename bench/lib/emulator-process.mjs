// The emulator in a process of its own (the package's `agent-hosting-emulator`
// bin), as a real service is: its work never shares the bench's event loop,
// where the Automation API runs the inline programs and registers their
// resources. Same handle as startEmulator's: url, baseUrl, apiKey, close(),
// and cpuMs(): the CPU time the emulator process has used so far.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** Milliseconds per clock tick of /proc/<pid>/stat's CPU times. */
const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** User and system CPU time of a process, in ms (Linux /proc; fields 14 and 15 of its stat line). */
export function processCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

export async function startEmulatorProcess(repoRoot, { readyAfterMs }) {
  const apiKey = `emu-${randomBytes(12).toString("hex")}`;
  const child = spawn(
    process.execPath,
    [join(repoRoot, "dist/emulator/bin.js"), "--port", "0", "--api-key", apiKey, "--ready-after-ms", String(readyAfterMs)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code} before listening`)));
  });
  const url = /listening on (\S+)/.exec(line)?.[1];
  if (!url) throw new Error(`the emulator said "${line}"`);
  return {
    url,
    baseUrl: new URL(url).origin,
    apiKey,
    cpuMs: () => processCpuMs(child.pid),
    close: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
