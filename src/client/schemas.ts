/**
 * zod validators of the service's answers, built from the same models as
 * their declared types (src/client/answer-model.ts; the declarations are
 * src/client/answer-types.ts, written by `npm run gen`). Tolerant: only what
 * the package relies on is checked (a required member must be there, a
 * checked one is of its type when present, null where the model allows it);
 * every other member, listed or not, is kept as the service sent it. zod stays inside the package:
 * no published declaration names it (these validators are typed with the
 * declared answer types).
 */
import { z } from "zod";
import { answerModels } from "./answer-model";
import type { AnswerValidator, ModelType, ObjectModel } from "./answer-model";
import type { ErrorBody, LogEntry, LogResult, SecretSet, ServiceAgent } from "./answer-types";

const MODELS = answerModels();
const built = new Map<string, z.ZodType>();

function memberSchema(type: ModelType): z.ZodType {
  switch (type.kind) {
    case "string":
      return z.string();
    case "boolean":
      return z.boolean();
    case "integer":
      return z.number().int();
    case "number":
      return z.number();
    case "array":
      return z.array(memberSchema(type.items));
    case "object":
      return z.lazy(() => modelSchema(type.name));
  }
}

/** The validator of a model: required members present, every listed member of its type, the service's extra members kept when the model is open. */
export function modelValidator(name: string): AnswerValidator<unknown> {
  return modelSchema(name);
}

function modelSchema(name: string): z.ZodType {
  const existing = built.get(name);
  if (existing) return existing;
  const model: ObjectModel | undefined = MODELS.get(name);
  if (!model) throw new Error(`no answer model ${name}`);
  const shape: Record<string, z.ZodType> = {};
  for (const m of model.members) {
    if (!m.checked) continue;
    let schema = memberSchema(m.type);
    if (m.nullable) schema = schema.nullable();
    shape[m.name] = m.required ? schema : schema.optional();
  }
  const schema = model.open ? z.looseObject(shape) : z.object(shape);
  built.set(name, schema);
  return schema;
}

/**
 * The agent's answer. Beyond the model, any optional top-level member may be
 * null (read as absent by asServiceAgent); `deployment` keeps its null.
 */
export const agentSchema: AnswerValidator<Record<string, unknown>> = (() => {
  const model = MODELS.get("ServiceAgent");
  if (!model) throw new Error("no answer model ServiceAgent");
  const shape: Record<string, z.ZodType> = {};
  for (const m of model.members) {
    if (!m.checked) continue;
    const schema = memberSchema(m.type);
    shape[m.name] = m.required ? schema : schema.nullish();
  }
  return z.looseObject(shape);
})();

/** The parsed agent, with members the service sent as null left out (but a null `deployment`, which means "none yet"). */
export function asServiceAgent(parsed: Record<string, unknown>): ServiceAgent {
  const agent: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) if (value !== null || key === "deployment") agent[key] = value;
  return agent as ServiceAgent;
}

// Typed with the declared answer types: test/unit/answer-types.test.ts shows they agree with what is checked.
export const logEntrySchema = modelSchema("LogEntry") as AnswerValidator<LogEntry>;
export const logResultSchema = modelSchema("LogResult") as AnswerValidator<LogResult>;
export const secretSetSchema = modelSchema("SecretSet") as AnswerValidator<SecretSet>;
export const errorBodySchema = modelSchema("ErrorBody") as AnswerValidator<ErrorBody>;
