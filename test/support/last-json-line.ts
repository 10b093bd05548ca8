/** Running a driver process that prints its result as the last line of its stdout, in JSON. */
import { spawn } from "node:child_process";
import { disagreementMessage, operationDisagreements, type AgentOperations } from "./project-scripts";

/** What every driver reports of an operation. */
export interface OperationSummary {
  ok: boolean;
  op: string;
  changeSummary: Record<string, number>;
  outputs: Record<string, unknown>;
  error?: string;
  /** For `up`: what its preview and its update did to each agent. */
  agentOperations?: { preview?: AgentOperations; update?: AgentOperations };
}

export interface DriverRun<T> {
  /** The parsed last line of stdout. */
  result: T;
  stderr: string;
  exitCode: number | null;
}

/**
 * Runs `command args` and parses its last stdout line; rejects, with both
 * streams, when that is not JSON, and when an `up` did something else to an
 * agent than its preview showed (whatever the test expects of the up).
 */
export function runForLastJsonLine<T>(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }, what: string): Promise<DriverRun<T>> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (exitCode) => {
      let result: T;
      try {
        result = JSON.parse(stdout.trim().split("\n").pop() ?? "") as T;
      } catch {
        reject(new Error(`${what} printed no result (exit ${exitCode}):\n${stdout}\n${stderr}`));
        return;
      }
      const summary = result as Partial<OperationSummary> | null;
      const ops = summary?.agentOperations;
      const disagreement = ops && disagreementMessage(operationDisagreements(ops.preview ?? {}, ops.update ?? {}, summary?.ok === true));
      if (disagreement) reject(new Error(`${what}: ${disagreement}\n${stderr}`));
      else resolve({ result, stderr, exitCode });
    });
  });
}
