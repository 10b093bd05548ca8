/** Runs the built `agent-hosting-review` bin (dist/review/bin.js) as a pipeline runs it. */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";

export const reviewBin = join(resolve(__dirname, "../.."), "dist/review/bin.js");

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bin with `args`, writing `stdin` (when given) to its standard input. */
export function runReviewBin(args: readonly string[], stdin?: string): Promise<BinResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [reviewBin, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}
