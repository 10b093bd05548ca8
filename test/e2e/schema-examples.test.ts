/**
 * The example programs of schema.json (the Agent's and each function's
 * `{{% examples %}}`, from schema-docs/examples) run as written against the
 * emulator, each on a new stack in the CLI's order: a preview of the new
 * stack (nothing exists yet), up, a preview that shows no change, destroy.
 * The programs are read back from schema.json's descriptions, so what the
 * registry shows is what runs.
 *
 * YAML runs with the CLI in a program directory (Pulumi YAML's language
 * host); TypeScript, Python and Go run through each language's Automation API
 * (test/support/program-runners.ts: no Node.js, Python or Go language host
 * binary exists here). The emulator adds fields the service's document never
 * names and leaves out those it does not promise, so the typed `manifest` and
 * `deployment` of the Python and Go SDKs are shown to tolerate both.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import { EmulatorControl, startEmulator } from "../../src/emulator";
import { REGISTRY } from "../../src/registry";
import { repoRoot, type StackConfig } from "../languages/support/drivers";
import type { OpResult } from "../languages/support/run";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { goRunner, pythonRunner, typescriptRunner, type ProgramOp } from "../support/program-runners";
import { schemaExamplePrograms, type SchemaExampleProgram } from "../support/schema-examples";
import { pulumiCommands } from "./support/pulumi-command";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "schema-examples-SECRET-key-5d02c9";
/** The examples of each registered resource and function, by name. */
const SCHEMA_EXAMPLES = Object.fromEntries([...REGISTRY.resources, ...REGISTRY.functions].map((entry) => [entry.name, entry.examples ?? []]));
const SECRET_FIELDS = ["OPENAI_API_KEY", "SIP_PASSWORD"];

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let control: EmulatorControl;
let client: AgentHostingClient;

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    apiKey: API_KEY,
    readyAfterMs: 300,
    secretSets: { "voice-bot-secrets": SECRET_FIELDS },
    extraFields: true,
    omitOptionalFields: true,
  });
  control = new EmulatorControl(emulator.baseUrl);
  client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: API_KEY });
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
});

const config = (): StackConfig => ({
  "agent-hosting:baseUrl": { value: emulator.url },
  "agent-hosting:apiKey": { value: API_KEY, secret: true },
});

/** One stack operation, whatever path the language takes. */
type Operation = (op: ProgramOp | "noop-preview") => Promise<{ error: string; changes: Record<string, number>; outputs: Record<string, unknown>; text: string }>;

const fromDriver = (r: OpResult) => ({ error: r.error ?? "", changes: r.changeSummary, outputs: r.outputs, text: r.engineOutput });

function driverOperation(example: SchemaExampleProgram, stack: StackDir): Operation {
  const label = `schema-example-${example.language}`;
  const run =
    example.language === "typescript"
      ? typescriptRunner(example.code, stack.workDir, label, config())
      : example.language === "python"
        ? pythonRunner(example.code, config())
        : goRunner(example.code, config(), label);
  return async (op) => fromDriver(await run(op === "noop-preview" ? "preview" : op, stack));
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

function changeCounts(out: string): Record<string, number> {
  const changes: Record<string, number> = {};
  for (const [, n, words] of out.matchAll(/(\d+) (to create|created|to update|updated|to replace|replaced|to delete|deleted|unchanged)\b/g)) {
    changes[SUMMARY_WORDS[words ?? ""] ?? ""] = Number(n);
  }
  return changes;
}

/** The YAML program in a directory of its own, driven by the CLI's commands. */
function cliOperation(example: SchemaExampleProgram, stack: StackDir): Operation {
  writeFileSync(join(stack.workDir, "Pulumi.yaml"), example.code);
  const env = yamlProgramEnv(stack.env);
  const cli = pulumiCommands(() => ({ cwd: stack.workDir, env }));
  let initialized = false;
  return async (op) => {
    if (!initialized) {
      for (const args of [
        ["stack", "init", "dev"],
        ["config", "set", "agent-hosting:baseUrl", emulator.url],
        ["config", "set", "--secret", "agent-hosting:apiKey", API_KEY],
      ]) {
        const { code, out } = await cli.run(...args);
        expect(code, out).toBe(0);
      }
      initialized = true;
    }
    const args = op === "up" ? ["up", "--yes"] : op === "destroy" ? ["destroy", "--yes"] : ["preview"];
    const { code, out } = await cli.run(...args);
    let outputs: Record<string, unknown> = {};
    if (op === "up" && code === 0) {
      const shown = await cli.run("stack", "output", "--json", "--show-secrets");
      outputs = JSON.parse(shown.out) as Record<string, unknown>;
    }
    return { error: code === 0 ? "" : out, changes: changeCounts(out), outputs, text: out };
  };
}

/** What each example's outputs are once it is up, by its directory under schema-docs/examples. */
const EXPECTED_OUTPUTS: Record<string, (live: { activeDeploymentId: string }) => Record<string, unknown>> = {
  agent: (live) => ({ deploymentId: live.activeDeploymentId, deployedImage: "registry.example.com/voice-bot:1.4.2" }),
  "get-secret-set": () => ({ secretFields: SECRET_FIELDS, loadedSecretSets: ["voice-bot-secrets"] }),
  "get-agent-logs": () => ({ matchingEntries: expect.any(Number), newestLogLines: expect.any(Array) }),
};

function exampleDir(example: SchemaExampleProgram): string {
  const name = example.token.split(":")[2] as keyof typeof SCHEMA_EXAMPLES;
  const found = SCHEMA_EXAMPLES[name]?.find((e) => e.title === example.title);
  if (!found) throw new Error(`no schema-docs example titled "${example.title}" for ${example.token}`);
  return found.dir;
}

const programs = schemaExamplePrograms(repoRoot);

describe("schema.json's examples", () => {
  it("the Agent and both functions each have a program in TypeScript, Python, Go and YAML", () => {
    const byToken = new Map<string, string[]>();
    for (const p of programs) byToken.set(p.token, [...(byToken.get(p.token) ?? []), p.language]);
    expect([...byToken.keys()].sort()).toEqual(["agent-hosting:index:Agent", "agent-hosting:index:getAgentLogs", "agent-hosting:index:getSecretSet"]);
    for (const [token, languages] of byToken) expect(languages.sort(), token).toEqual(["go", "python", "typescript", "yaml"]);
  });
});

describe.each(programs.map((p) => [`${p.token.split(":")[2]} in ${p.language} (${p.title})`, p] as const))("%s", (_label, example) => {
  let stack: StackDir;
  let operation: Operation;
  const texts: string[] = [];

  beforeAll(() => {
    stack = stackDir(`schema-example-${exampleDir(example)}-${example.language}`);
    operation = example.language === "yaml" ? cliOperation(example, stack) : driverOperation(example, stack);
  });
  afterAll(() => stack?.remove());

  it(`runs ${example.language === "yaml" ? "with the CLI in its directory" : "through the Automation API"}: preview of the new stack, up, a no-op preview, destroy`, async () => {
    const step = async (op: Parameters<Operation>[0]) => {
      const result = await operation(op);
      texts.push(result.text, result.error, JSON.stringify(result.outputs));
      expect(result.error, result.text).toBe("");
      return result;
    };
    const preview = await step("preview");
    expect(preview.changes["create"]).toBe(2); // the stack and the agent
    expect((await control.listAgents()).agents).toEqual([]);

    const up = await step("up");
    expect(up.changes["create"]).toBe(2);
    const live = await client.getAgent("voice-bot");
    expect(live.ready).toBe(true);
    expect(up.outputs).toEqual(EXPECTED_OUTPUTS[exampleDir(example)]?.(live));

    const again = await step("noop-preview");
    expect(Object.entries(again.changes).filter(([kind, n]) => kind !== "same" && n > 0)).toEqual([]);

    await step("destroy");
    expect((await control.listAgents()).agents).toEqual([]);
    expect(texts.join("\n")).not.toContain(API_KEY);
  });
});
