/** Running a driver process and reading the one JSON line it prints last. */
import { runForLastJsonLine, type OperationSummary } from "../../support/last-json-line";

export interface OpResult extends OperationSummary {
  /** The engine's own output (progress and diagnostics). */
  engineOutput: string;
}

export async function runDriver(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<OpResult> {
  const { result: parsed, stderr } = await runForLastJsonLine<Partial<OpResult>>(command, args, { cwd, env }, `${command} ${args[0]}`);
  return {
    ok: parsed.ok === true,
    op: parsed.op ?? args[0] ?? "",
    changeSummary: parsed.changeSummary ?? {},
    outputs: parsed.outputs ?? {},
    ...(parsed.error ? { error: parsed.error } : {}),
    ...(parsed.agentOperations ? { agentOperations: parsed.agentOperations } : {}),
    engineOutput: `${parsed.engineOutput ?? ""}${stderr}`,
  };
}
