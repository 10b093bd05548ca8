/**
 * A program's first stack, in the order users run the CLI: up, whose own
 * preview of the new stack (nothing exists yet) runs first, a preview that
 * shows no change, destroy; with `firstPreview`, a `pulumi preview` of the
 * new stack before the up too, as a README that lists it has users run it.
 * The program declares one agent; each operation runs through a stack
 * driver (test/support/stack-driver.ts), whatever path the language takes
 * (the CLI in a program directory: `cliDriver`, or the Automation API), and
 * the service is asked what exists after each.
 */
import { expect } from "vitest";
import type { AgentHostingClient } from "../../../src/client/client";
import type { EmulatorControl } from "../../../src/emulator";
import type { DriverStack, StackDriver, StackOp } from "../../support/stack-driver";
import { pulumiCommands } from "./pulumi-command";

type LiveAgent = Awaited<ReturnType<AgentHostingClient["getAgent"]>>;

/**
 * Runs the new stack's operations in order with `driver` on `stack` and checks each against the service:
 * the first preview (the up's own, and with `firstPreview` the one before it, which creates nothing)
 * plans the stack and the agent; up creates both, the agent `agentName` is ready and the outputs are
 * `expectedOutputs(live agent)`; the second preview changes nothing; destroy leaves no agent. Returns
 * every text, error and output the operations gave, for the caller's own checks.
 */
export async function runNewStack(
  driver: StackDriver,
  stack: DriverStack,
  service: { control: EmulatorControl; client: AgentHostingClient },
  expectedOutputs: (live: LiveAgent) => Record<string, unknown>,
  options: { firstPreview?: boolean; agentName?: string } = {},
): Promise<string[]> {
  const texts: string[] = [];
  const step = async (op: StackOp) => {
    const result = await driver.run(op, stack);
    texts.push(result.engineOutput, result.error ?? "", JSON.stringify(result.outputs));
    expect(result.error ?? "", result.engineOutput).toBe("");
    return result;
  };
  if (options.firstPreview) {
    const preview = await step("preview");
    expect(preview.changeSummary["create"]).toBe(2); // the stack and the agent
    expect((await service.control.listAgents()).agents).toEqual([]);
  }

  const up = await step("up");
  expect(up.previewChangeSummary?.["create"], "the up's own preview of the new stack").toBe(2);
  expect(up.changeSummary["create"]).toBe(2);
  const live = await service.client.getAgent(options.agentName ?? "voice-bot");
  expect(live.ready).toBe(true);
  expect(up.outputs).toEqual(expectedOutputs(live));

  const again = await step("preview");
  expect(Object.entries(again.changeSummary).filter(([kind, n]) => kind !== "same" && n > 0)).toEqual([]);

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
 * The driver of a program run with the CLI in its directory (the stack's work directory, with the
 * stack's environment): `setup` (stack init, config, each as `pulumi` arguments) once before the first
 * operation, then each operation's arguments (`pulumi preview`, `up --yes`, `destroy --yes` unless
 * `argsOf` says otherwise); the change counts from the CLI's summary lines (an up's own preview's from
 * its output up to the update's "Updating (dev):"), the outputs after an up from
 * `pulumi stack output --json --show-secrets`.
 */
export function cliDriver(language: string, setup: readonly (readonly string[])[], argsOf: (op: StackOp) => string[] = YES_ARGS): StackDriver {
  let ready = false;
  return {
    language,
    async run(op, stack) {
      const cli = pulumiCommands(() => ({ cwd: stack.workDir, env: stack.env }));
      if (!ready) {
        for (const args of setup) await cli.ok(...args);
        ready = true;
      }
      const { code, out } = await cli.run(...argsOf(op));
      let outputs: Record<string, unknown> = {};
      if (op === "up" && code === 0) outputs = JSON.parse((await cli.run("stack", "output", "--json", "--show-secrets")).out) as Record<string, unknown>;
      const [previewed, updated] = out.split(/^Updating \(/m);
      const summaries = op === "up" && updated !== undefined ? { previewChangeSummary: changeCounts(previewed ?? ""), changeSummary: changeCounts(updated) } : { changeSummary: changeCounts(out) };
      return { ok: code === 0, op, ...summaries, outputs, engineOutput: out, ...(code === 0 ? {} : { error: out }) };
    },
  };
}
