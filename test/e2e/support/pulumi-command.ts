/**
 * The `pulumi` CLI as a user types it in a program directory. It runs
 * asynchronously, because the emulator answering the engine lives in the
 * test's own process; every output is kept, so a test can grep all of it.
 */
import { spawn } from "node:child_process";

export interface PulumiCommands {
  /** Runs `pulumi args`; resolves with the exit code and the combined output. */
  run(...args: string[]): Promise<{ code: number; out: string }>;
  /** Every output so far, in order. */
  readonly seen: string[];
}

/** Runs `pulumi args` in `cwd`; resolves with the exit code and each stream. */
export function runPulumi(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", args, { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export function pulumiCommands(where: () => { cwd: string; env: NodeJS.ProcessEnv }): PulumiCommands {
  const seen: string[] = [];
  return {
    seen,
    run: (...args) =>
      new Promise((resolve, reject) => {
        const child = spawn("pulumi", args, where());
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.on("error", reject);
        child.on("close", (code) => {
          seen.push(out);
          resolve({ code: code ?? -1, out });
        });
      }),
  };
}
