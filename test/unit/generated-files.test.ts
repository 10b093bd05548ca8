/** The files generated from the model are what the model generates now: a changed field without `npm run gen` fails here. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as model from "../../src/model";
import { applyReadmeTables, renderModelTypes, renderReadmeTables, renderResourceTypes } from "../../scripts/lib/model-render.mjs";

const root = join(__dirname, "..", "..");
const read = (...path: string[]) => readFileSync(join(root, ...path), "utf8");

describe("files generated from the model", () => {
  it("src/model/agent-types.ts", () => {
    expect(read("src", "model", "agent-types.ts")).toBe(renderModelTypes(model));
  });

  it("src/resources/agent-types.ts: AgentArgs and the documented outputs of Agent", () => {
    const text = read("src", "resources", "agent-types.ts");
    expect(text).toBe(renderResourceTypes(model));
    for (const output of model.AGENT_OUTPUTS) expect(text).toContain(`/** ${output.description} */\n  readonly ${output.name}:`);
  });

  it("the README's reference tables", () => {
    const readme = read("README.md");
    expect(readme).toBe(applyReadmeTables(readme, renderReadmeTables(model)));
    for (const field of model.AGENT_FIELDS) expect(readme).toContain(`| \`${field.name}\` |`);
  });
});

describe("npm run gen", () => {
  it("builds, then runs every generator: model types and README tables, schema.json, the SDKs", () => {
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
    const steps = (scripts["gen"] ?? "").split("&&").map((step) => step.trim());
    expect(steps).toEqual(["npm run build", "node scripts/gen-model.mjs", "node scripts/gen-schema.mjs", "node scripts/gen-sdk.mjs"]);
  });
});
