/** Running a driver process and reading the one JSON line it prints last. */
import { spawn } from "node:child_process";

export interface OpResult {
  ok: boolean;
  op: string;
  changeSummary: Record<string, number>;
  outputs: Record<string, unknown>;
  error?: string;
  /** The engine's own output (progress and diagnostics). */
  engineOutput: string;
}

export function runDriver(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<OpResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const last = stdout.trim().split("\n").pop() ?? "";
      try {
        const parsed = JSON.parse(last) as Partial<OpResult>;
        resolve({
          ok: parsed.ok === true,
          op: parsed.op ?? args[0] ?? "",
          changeSummary: parsed.changeSummary ?? {},
          outputs: parsed.outputs ?? {},
          ...(parsed.error ? { error: parsed.error } : {}),
          engineOutput: `${parsed.engineOutput ?? ""}${stderr}`,
        });
      } catch {
        reject(new Error(`${command} ${args[0]} printed no result (exit ${code}):\n${stdout}\n${stderr}`));
      }
    });
  });
}
