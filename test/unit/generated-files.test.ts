/** The files generated from the registry's field tables are what the tables generate now: a changed field without `npm run gen` fails here. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REGISTRY } from "../../src/registry";
import { applyReadmeTables, renderModelTypes, renderReadmeTables, renderResourceTypes } from "../../scripts/lib/model-render.mjs";

const root = join(__dirname, "..", "..");
const read = (...path: string[]) => readFileSync(join(root, ...path), "utf8");
const agent = REGISTRY.resources.find((r) => r.name === "Agent");
if (!agent) throw new Error("the registry has no Agent");

describe("files generated from the registry", () => {
  it("src/resources/agent/inputs-outputs.ts", () => {
    expect(read("src", "resources", "agent", "inputs-outputs.ts")).toBe(renderModelTypes(agent));
  });

  it("src/resources/agent/resource-args.ts: AgentArgs and the documented outputs of Agent", () => {
    const text = read("src", "resources", "agent", "resource-args.ts");
    expect(text).toBe(renderResourceTypes(agent));
    for (const output of agent.outputs) expect(text).toContain(`/** ${output.description} */\n  readonly ${output.name}:`);
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
