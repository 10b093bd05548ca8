/**
 * One stack operation of a Java program, run as users run it: `pulumi
 * preview|up|destroy --json` in the program's directory. Read back into the
 * shape the language drivers report (test/support/stack-driver.ts): preview
 * prints one JSON document with its changeSummary; up and destroy print their
 * preview's document (an up's `previewChangeSummary`) and then one JSON event
 * a line, whose summaryEvent holds the changes. The stack's outputs after an up come from `pulumi stack output --json`.
 * `javaCliDriver` is the Java driver of test/support/stack-driver.ts: the
 * stack's work directory is the program's directory.
 */
import type { OpResult, StackDriver, StackOp } from "../../support/stack-driver";
import { runPulumi } from "./pulumi-command";

type Op = StackOp;

interface Diagnostic {
  message?: string;
  severity?: string;
}


const ARGS: Record<Op, string[]> = {
  preview: ["preview", "--json"],
  up: ["up", "--yes", "--json"],
  refresh: ["refresh", "--yes", "--json"],
  destroy: ["destroy", "--yes", "--json"],
};

/** The Java driver: the pulumi CLI in the program's directory (the stack's work directory). */
export const javaCliDriver: StackDriver = {
  language: "Java",
  run: (op, stack) => javaCliOp(op, stack.workDir, stack.env),
};

export async function javaCliOp(op: Op, cwd: string, env: NodeJS.ProcessEnv): Promise<OpResult> {
  const { code, stdout, stderr } = await runPulumi(ARGS[op], cwd, env);
  let changeSummary: Record<string, number> = {};
  let diagnostics: Diagnostic[] = [];
  let previewChangeSummary: Record<string, number> | undefined;
  if (op === "preview") {
    try {
      const doc = JSON.parse(stdout) as { changeSummary?: Record<string, number>; diagnostics?: Diagnostic[] };
      changeSummary = doc.changeSummary ?? {};
      diagnostics = doc.diagnostics ?? [];
    } catch {
      diagnostics = [{ severity: "error", message: `pulumi preview --json printed no JSON document:\n${stdout}` }];
    }
  } else {
    if (op === "up") {
      // The up's own preview: its document, before the first event line.
      const document = stdout.slice(0, Math.max(0, stdout.indexOf('{"sequence"')));
      try {
        previewChangeSummary = (JSON.parse(document) as { changeSummary?: Record<string, number> }).changeSummary;
      } catch {
        previewChangeSummary = undefined;
      }
    }
    const events = stdout
      .split("\n")
      .filter((line) => line.startsWith('{"sequence"'))
      .map((line) => JSON.parse(line) as { summaryEvent?: { resourceChanges?: Record<string, number> }; diagnosticEvent?: Diagnostic });
    changeSummary = events.find((e) => e.summaryEvent)?.summaryEvent?.resourceChanges ?? {};
    diagnostics = events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent] : []));
  }
  const errors = diagnostics.filter((d) => d.severity === "error").map((d) => d.message ?? "");
  let outputs: Record<string, unknown> = {};
  if (op === "up" && code === 0) {
    const shown = await runPulumi(["stack", "output", "--json"], cwd, env);
    outputs = JSON.parse(shown.stdout) as Record<string, unknown>;
  }
  const failed = code !== 0 || errors.length > 0;
  return {
    ok: !failed,
    op,
    changeSummary,
    ...(previewChangeSummary ? { previewChangeSummary } : {}),
    outputs,
    ...(failed ? { error: errors.join("") || `pulumi ${op} exited with ${code}` } : {}),
    engineOutput: `${stdout}${stderr}`,
  };
}
