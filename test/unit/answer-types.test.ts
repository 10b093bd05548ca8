/**
 * The declared answer types (src/client/answer-types.ts, generated) and the
 * validators (src/client/schemas.ts, zod, built at run time) come from the
 * same models (src/client/answer-model.ts). Here both judge the same sample
 * answers, made from the models: TypeScript's checker judges each sample
 * against the declaration, the validator parses it. They must agree on every
 * checked member (its absence when required, its type, null); where they
 * may differ it is on purpose and pinned here: an unchecked member of another
 * type is kept as the service sent it (the declaration says so), and an
 * integer member is TypeScript's `number` (its comment says "an integer").
 */
import ts from "typescript";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerModels, type ModelMember, type ModelType, type ObjectModel } from "../../src/client/answer-model";
import { parseLogResult } from "../../src/client/log-result";
import { agentSchema, asServiceAgent, logResultSchema, modelValidator } from "../../src/client/schemas";

const MODELS = answerModels();
const model = (name: string): ObjectModel => {
  const found = MODELS.get(name);
  if (!found) throw new Error(`no model ${name}`);
  return found;
};

/** A valid value of a type: every member of a nested model present. */
function valueOf(type: ModelType): unknown {
  switch (type.kind) {
    case "string":
      return "text";
    case "boolean":
      return true;
    case "integer":
      return 2;
    case "number":
      return 2.5;
    case "array":
      return [valueOf(type.items)];
    case "object":
      return Object.fromEntries(model(type.name).members.map((m) => [m.name, valueOf(m.type)]));
  }
}

/** A value of another type than `type`. */
const wrongFor = (type: ModelType): unknown => (type.kind === "string" ? 7 : "wrong");

interface Sample {
  label: string;
  model: string;
  value: unknown;
  /** What the validator must say, and what TypeScript must say of the declaration. */
  validator: boolean;
  typescript: boolean;
}

function samples(m: ObjectModel): Sample[] {
  const full = valueOf({ kind: "object", name: m.name }) as Record<string, unknown>;
  const minimal = Object.fromEntries(m.members.filter((x) => x.required).map((x) => [x.name, full[x.name]]));
  const out: Sample[] = [
    { label: "every member", model: m.name, value: full, validator: true, typescript: true },
    { label: "the required members only", model: m.name, value: minimal, validator: true, typescript: true },
  ];
  const variant = (member: ModelMember, label: string, value: unknown, validator: boolean, typescript: boolean) =>
    out.push({ label: `${member.name}: ${label}`, model: m.name, value: { ...full, [member.name]: value }, validator, typescript });
  for (const member of m.members) {
    // Checked: both refuse another type; unchecked: kept as sent, as its declaration says.
    variant(member, "another type", wrongFor(member.type), !member.checked, false);
    if (member.checked) variant(member, "null", null, member.nullable || (m.name === "ServiceAgent" && !member.required), member.nullable);
    if (member.required) {
      const { [member.name]: _left, ...rest } = full;
      out.push({ label: `${member.name}: left out`, model: m.name, value: rest, validator: false, typescript: false });
    }
    if (member.checked && member.type.kind === "integer") variant(member, "not an integer", 1.5, false, true);
  }
  if (m.open) out.push({ label: "a member the model does not list", model: m.name, value: { ...full, addedByTheService: { any: 1 } }, validator: true, typescript: true });
  return out;
}

const ALL: Sample[] = [...MODELS.values()].flatMap(samples);

/** The validator's verdict and what it returns; the Agent and the log result as the client parses them. */
function validate(sample: Sample): { ok: boolean; value?: unknown } {
  if (sample.model === "ServiceAgent") {
    const parsed = agentSchema.safeParse(sample.value);
    return parsed.success ? { ok: true, value: asServiceAgent(parsed.data) } : { ok: false };
  }
  const parsed = modelValidator(sample.model).safeParse(sample.value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}

/** TypeScript's verdict on each value against its declared type (strict, no excess-property check: values are not fresh literals). */
function typescriptVerdicts(values: { model: string; value: unknown }[]): boolean[] {
  const dir = join(__dirname, "..", "..", "src", "client");
  const file = join(dir, "__answer-samples__.ts");
  const lines = [`import type * as A from "./answer-types";`];
  values.forEach((v, i) => lines.push(`const v${i} = ${JSON.stringify(v.value)}; export const s${i}: A.${v.model} = v${i};`));
  const text = `${lines.join("\n")}\n`;
  const options: ts.CompilerOptions = { strict: true, noEmit: true, lib: ["lib.es5.d.ts"], types: [], target: ts.ScriptTarget.ES2020 };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) => (name === file ? ts.createSourceFile(name, text, version) : read(name, version));
  const program = ts.createProgram([file], options, host);
  const source = program.getSourceFile(file);
  const bad = new Set<number>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (d.file?.fileName !== file || d.start === undefined || !source) throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    bad.add(source.getLineAndCharacterOfPosition(d.start).line - 1);
  }
  return values.map((_, i) => !bad.has(i));
}

describe("the declared answer types and the validators agree", () => {
  const judged = typescriptVerdicts(ALL);
  const validated = ALL.map(validate);
  // What the validator accepts is given to the program as parsed: it must fit the declaration wherever the sample only varies checked members.
  const parsedOk = typescriptVerdicts(ALL.flatMap((s, i) => (validated[i]?.ok && s.typescript ? [{ model: s.model, value: validated[i]?.value }] : [])));

  it("on every sample made from the models", () => {
    const disagreements = ALL.flatMap((s, i) => {
      const problems: string[] = [];
      if (validated[i]?.ok !== s.validator) problems.push(`validator ${validated[i]?.ok ? "accepts" : "refuses"}`);
      if (judged[i] !== s.typescript) problems.push(`TypeScript ${judged[i] ? "accepts" : "refuses"}`);
      return problems.length > 0 ? [`${s.model} (${s.label}): ${problems.join(", ")}`] : [];
    });
    expect(disagreements).toEqual([]);
    expect(parsedOk.every(Boolean)).toBe(true);
    expect(ALL.length).toBeGreaterThan(60);
  });

  it("the relied-on members are required and checked; an unchecked member's declaration says it is kept as sent", () => {
    const agent = model("ServiceAgent");
    expect(agent.members.filter((m) => m.required).map((m) => m.name)).toEqual(["name", "ready", "activeDeploymentId", "activeDeploymentReady", "autoScaling"]);
    expect(model("Deployment").members.filter((m) => m.checked).map((m) => m.name)).toEqual(["id", "manifest"]);
    expect(model("Manifest").members.filter((m) => m.checked).map((m) => m.name)).toEqual(["spec"]);
  });

  it("the log result's fast path (parseLogResult) accepts and refuses what its zod validator does", () => {
    for (const s of ALL.filter((x) => ["LogResult"].includes(x.model))) {
      const fast = (() => {
        try {
          parseLogResult(JSON.stringify(s.value), "GET", "/v1/agents/a/logs");
          return true;
        } catch {
          return false;
        }
      })();
      expect(fast, s.label).toBe(logResultSchema.safeParse(s.value).success);
    }
  });
});
