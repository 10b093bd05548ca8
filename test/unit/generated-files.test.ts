/** The files generated from the registry's field tables are what the tables generate now: a changed field without `npm run gen` fails here. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerModels } from "../../src/client/answer-model";
import { REGISTRY } from "../../src/registry";
import { applyReadmeTables, renderAnswerTypes, renderFunctionTypes, renderModelTypes, renderReadmeTables, renderRequestTypes, renderResourceTypes } from "../support/project-scripts";

const root = join(__dirname, "..", "..");
const read = (...path: string[]) => readFileSync(join(root, ...path), "utf8");
const agent = REGISTRY.resources.find((r) => r.name === "Agent");
if (!agent) throw new Error("the registry has no Agent");
const logs = REGISTRY.functions.find((f) => f.name === "getAgentLogs");
if (!logs) throw new Error("the registry has no getAgentLogs");

describe("files generated from the registry", () => {
  it("src/resources/agent/inputs-outputs.ts", () => {
    expect(read("src", "resources", "agent", "inputs-outputs.ts")).toBe(renderModelTypes(agent, [...answerModels().values()]));
  });

  it("src/resources/agent/resource-args.ts: AgentArgs and the documented outputs of Agent", () => {
    const text = read("src", "resources", "agent", "resource-args.ts");
    expect(text).toBe(renderResourceTypes(agent));
    for (const output of agent.outputs) expect(text).toContain(`/** ${output.description} */\n  readonly ${output.name}:`);
  });

  it("src/client/answer-types.ts: the service's answers, from the answer models", () => {
    expect(read("src", "client", "answer-types.ts")).toBe(renderAnswerTypes([...answerModels().values()]));
  });

  it("src/client/request-types.ts: the create and update bodies and the logs query", () => {
    expect(read("src", "client", "request-types.ts")).toBe(renderRequestTypes(agent, logs));
  });

  it("src/functions/function-types.ts: each function's arguments and result", () => {
    expect(read("src", "functions", "function-types.ts")).toBe(renderFunctionTypes(REGISTRY.functions));
  });

  it("the README's reference tables", () => {
    const readme = read("README.md");
    expect(readme).toBe(applyReadmeTables(readme, renderReadmeTables(agent)));
    for (const field of agent.fields) expect(readme).toContain(`| \`${field.name}\` |`);
  });
});

describe("npm run gen", () => {
  it("builds, then runs every generator: model types and README tables, schema.json, the SDKs", () => {
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
    const steps = (scripts["gen"] ?? "").split("&&").map((step) => step.trim());
    expect(steps).toEqual(["npm run build", "node scripts/gen-model.mjs", "node scripts/gen-schema.mjs", "node scripts/gen-sdk.mjs"]);
  });
});
