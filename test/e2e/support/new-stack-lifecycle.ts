/**
 * A program's first stack, in the order users run the CLI: a preview of the
 * new stack (nothing exists yet), up, a preview that shows no change,
 * destroy. The program declares one agent; each operation's outcome is read
 * into the shape the language drivers report, whatever path the language
 * takes (the CLI in a program directory, or the Automation API), and the
 * service is asked what exists after each.
 */
import { expect } from "vitest";
import type { AgentHostingClient } from "../../../src/client/client";
import type { EmulatorControl } from "../../../src/emulator";
import type { PulumiCommands } from "./pulumi-command";

export type StackOp = "preview" | "up" | "destroy";

/** What one operation did: its error ("" when it succeeded), the change counts by kind, the stack's outputs after an up, what it printed. */
export interface StackOpOutcome {
  error: string;
  changes: Record<string, number>;
  outputs: Record<string, unknown>;
  text: string;
}

export type StackOperation = (op: StackOp) => Promise<StackOpOutcome>;

type LiveAgent = Awaited<ReturnType<AgentHostingClient["getAgent"]>>;

/**
 * Runs the new stack's operations in order and checks each against the service: the preview plans
 * the stack and the agent and creates nothing; up creates both, the agent `agentName` is ready and the
 * outputs are `expectedOutputs(live agent)`; the second preview changes nothing; destroy leaves no
 * agent. Returns every text, error and output the operations gave, for the caller's own checks.
 */
export async function runNewStack(
  operation: StackOperation,
  service: { control: EmulatorControl; client: AgentHostingClient },
  expectedOutputs: (live: LiveAgent) => Record<string, unknown>,
  agentName = "voice-bot",
): Promise<string[]> {
  const texts: string[] = [];
  const step = async (op: StackOp) => {
    const result = await operation(op);
    texts.push(result.text, result.error, JSON.stringify(result.outputs));
    expect(result.error, result.text).toBe("");
    return result;
  };
  const preview = await step("preview");
  expect(preview.changes["create"]).toBe(2); // the stack and the agent
  expect((await service.control.listAgents()).agents).toEqual([]);

  const up = await step("up");
  expect(up.changes["create"]).toBe(2);
  const live = await service.client.getAgent(agentName);
  expect(live.ready).toBe(true);
  expect(up.outputs).toEqual(expectedOutputs(live));

  const again = await step("preview");
  expect(Object.entries(again.changes).filter(([kind, n]) => kind !== "same" && n > 0)).toEqual([]);

  await step("destroy");
  expect((await service.control.listAgents()).agents).toEqual([]);
  return texts;
}

/** The CLI's "Resources:" summary lines, as the Automation API's change summary: "+ 2 to create" → { create: 2 }. */
const SUMMARY_WORDS: Record<string, string> = {
  "to create": "create",
  created: "create",
  "to update": "update",
  updated: "update",
  "to replace": "replace",
  replaced: "replace",
  "to delete": "delete",
  deleted: "delete",
  unchanged: "same",
};

const SUMMARY_LINE = new RegExp(`(\\d+) (${Object.keys(SUMMARY_WORDS).join("|")})\\b`, "g");

export function changeCounts(out: string): Record<string, number> {
  const changes: Record<string, number> = {};
  for (const [, n, words] of out.matchAll(SUMMARY_LINE)) {
    changes[SUMMARY_WORDS[words ?? ""] ?? ""] = Number(n);
  }
  return changes;
}

const YES_ARGS = (op: StackOp): string[] => (op === "preview" ? ["preview"] : [op, "--yes"]);

/**
 * The operations of a program run with the CLI in its directory: `setup` (stack init, config, each as
 * `pulumi` arguments) once before the first, then each operation's arguments (`pulumi preview`,
 * `up --yes`, `destroy --yes` unless `argsOf` says otherwise); the outputs after an up from
 * `pulumi stack output --json --show-secrets`.
 */
export function cliStackOperation(cli: PulumiCommands, setup: readonly (readonly string[])[], argsOf: (op: StackOp) => string[] = YES_ARGS): StackOperation {
  let ready = false;
  return async (op) => {
    if (!ready) {
      for (const args of setup) await cli.ok(...args);
      ready = true;
    }
    const { code, out } = await cli.run(...argsOf(op));
    let outputs: Record<string, unknown> = {};
    if (op === "up" && code === 0) outputs = JSON.parse((await cli.run("stack", "output", "--json", "--show-secrets")).out) as Record<string, unknown>;
    return { error: code === 0 ? "" : out, changes: changeCounts(out), outputs, text: out };
  };
}
