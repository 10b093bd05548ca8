/**
 * The service's answers as object models, built from the answer tables
 * (src/client/answer-tables.ts: the agent's members, which the Agent's
 * outputs table reuses, the named object types of its deployment and
 * manifest, a page of logs, which getAgentLogs's result reuses), and the two
 * answers no other table describes (a secret set and an error body, below).
 *
 * Both sides of an answer come from these models: `npm run gen` writes the
 * TypeScript declarations (src/client/answer-types.ts, plain interfaces) and
 * src/client/schemas.ts builds the zod validators from them at run time, so
 * the declared type and what is checked cannot drift apart
 * (test/unit/answer-types.test.ts checks they agree on sample answers).
 *
 * The answers are read tolerantly: only what the package relies on is
 * checked (`checked`); every other member is declared with the type the
 * service's document gives it, and kept as the service sent it, whatever its
 * shape (its declaration says so).
 */
import { AGENT_ANSWER, LOG_RESULT_FIELDS, SERVICE_OBJECT_TYPES } from "./answer-tables";
import type { DocumentedField } from "./answer-tables";

/**
 * What the client needs of a validator of an answer: zod's `parse` and
 * `safeParse` (src/client/schemas.ts builds them with zod). Declared here, with
 * the models, so that no published declaration names zod.
 */
export interface AnswerValidator<T> {
  parse(value: unknown): T;
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

export type ModelType =
  | { kind: "string" | "boolean" | "integer" | "number" }
  | { kind: "array"; items: ModelType }
  /** Another model, by name. */
  | { kind: "object"; name: string };

export interface ModelMember {
  name: string;
  description: string;
  type: ModelType;
  /** Every answer has it (the package relies on it); otherwise it may be absent. */
  required: boolean;
  /** Its type is checked when present (a required member always is); otherwise it is kept as the service sent it, whatever its shape. */
  checked: boolean;
  /** The service may send null for it, and the value keeps that null. */
  nullable: boolean;
}

export interface ObjectModel {
  name: string;
  description: string;
  members: readonly ModelMember[];
  /** Members the service adds beyond the listed ones are kept as it sent them (`[extra: string]: unknown`). */
  open: boolean;
}

const OPEN_NOTE = "Members the service adds beyond these are kept as it sent them.";

/**
 * The members of the deployment and the manifest the package relies on (the
 * readiness wait reads the deployment's ID, the model reads the manifest's
 * spec): checked when present, and null allowed. Every other member of these
 * types is kept as the service sent it.
 */
const CHECKED_SERVICE_MEMBERS: Readonly<Record<string, readonly string[]>> = { Deployment: ["id", "manifest"], Manifest: ["spec"] };

/**
 * The agent's members the package relies on when the service sends them:
 * `deployment`, and the two a service that rolls updates sends, which name
 * the deployment a create or update waits for while the old one serves.
 */
const CHECKED_AGENT_MEMBERS: readonly string[] = ["deployment", "desiredDeploymentId", "available"];

/** The scaling the service reports (the Agent's `autoScaling` output and the manifest's `spec.autoScaling`). */
const SCALING_MODEL = "AgentAutoScalingStatus";

function scalar(type: string): ModelType {
  if (type === "string" || type === "boolean" || type === "integer" || type === "number") return { kind: type };
  throw new Error(`no model type for "${type}"`);
}

/** The agent as the service answers it (src/client/answer-tables.ts), and the scaling it reports. */
function agentModel(): ObjectModel[] {
  const scaling = AGENT_ANSWER.find((o) => o.name === "autoScaling");
  if (!scaling?.properties) throw new Error("the agent's answer has no autoScaling with properties");
  const members = AGENT_ANSWER.map((o): ModelMember => {
    const type: ModelType = o.name === "autoScaling" ? { kind: "object", name: SCALING_MODEL } : o.name === "deployment" ? { kind: "object", name: "Deployment" } : scalar(o.type);
    // `deployment` is checked (an object or null) though not required; a null top-level member other than it is read as absent (asServiceAgent).
    const checked = o.reliedOn || CHECKED_AGENT_MEMBERS.includes(o.name);
    return { name: o.name, description: o.description, type, required: o.reliedOn, checked, nullable: o.tsType.includes("null") };
  });
  return [
    { name: "ServiceAgent", description: `An agent as the service answers it. ${OPEN_NOTE}`, members, open: true },
    {
      name: SCALING_MODEL,
      description: `Scaling as the service reports it. ${OPEN_NOTE}`,
      members: scaling.properties.map((p) => ({ name: p.name, description: p.description, type: scalar(p.type), required: true, checked: true, nullable: false })),
      open: true,
    },
  ];
}

/** Deployment, Manifest and the manifest's parts: every member optional; those the package relies on checked, and null allowed there. */
function serviceObjectModels(): ObjectModel[] {
  return SERVICE_OBJECT_TYPES.map((t) => {
    const checkedNames = CHECKED_SERVICE_MEMBERS[t.name] ?? [];
    const members = t.members.map((m): ModelMember => {
      const type: ModelType = "typeName" in m ? { kind: "object", name: m.typeName } : m.type === "array" ? { kind: "array", items: { kind: "string" } } : scalar(m.type);
      const checked = checkedNames.includes(m.name);
      return { name: m.name, description: m.description, type, required: false, checked, nullable: checked };
    });
    // In an answer the deployment carries its manifest (the Agent's outputs show it apart, as `manifest`).
    if (t.name === "Deployment") {
      const name = "manifest";
      const checked = checkedNames.includes(name);
      members.push({ name, description: "The deployment's manifest (the Agent's `manifest` output).", type: { kind: "object", name: "Manifest" }, required: false, checked, nullable: checked });
    }
    return { name: t.name, description: t.description, members, open: true };
  });
}

/** A page of logs and its object types (by their type names in the schema), closed, every member as the table says. */
function functionResultModels(): ObjectModel[] {
  const models: ObjectModel[] = [];
  const add = (typeName: string, description: string, properties: readonly DocumentedField[]) => {
    models.push({ name: typeName, description, members: properties.map(functionMember), open: false });
  };
  const functionMember = (f: DocumentedField): ModelMember => {
    let type: ModelType;
    if (f.type === "array") {
      const items = f.items;
      if (items === undefined || items === "string") type = { kind: "array", items: { kind: "string" } };
      else {
        add(items.typeName, f.description, items.properties);
        type = { kind: "array", items: { kind: "object", name: items.typeName } };
      }
    } else if (f.type === "object" && f.object) {
      add(f.object.typeName, f.description, f.object.properties);
      type = { kind: "object", name: f.object.typeName };
    } else type = scalar(f.type);
    return { name: f.name, description: f.description, type, required: f.required === true, checked: true, nullable: false };
  };
  models.push({ name: "LogResult", description: "One page of an agent's logs (GET /agents/{name}/logs).", members: LOG_RESULT_FIELDS.map(functionMember), open: false });
  return models;
}

/** The answers no other table describes: GET /secrets/{name} (section 2.7 of the service document) and an error body. */
const OTHER_MODELS: readonly ObjectModel[] = [
  {
    name: "SecretSet",
    description: `A secret set as the service answers it: the names of its fields, never their values. ${OPEN_NOTE}`,
    members: [
      { name: "secrets", description: "One entry per field of the set.", type: { kind: "array", items: { kind: "object", name: "SecretSetField" } }, required: true, checked: true, nullable: false },
    ],
    open: true,
  },
  {
    name: "SecretSetField",
    description: `One field of a secret set. ${OPEN_NOTE}`,
    members: [{ name: "fieldName", description: "Name of the field.", type: { kind: "string" }, required: true, checked: true, nullable: false }],
    open: true,
  },
  {
    name: "ErrorBody",
    description: "The body of the service's error answers.",
    members: [
      { name: "error", description: "What went wrong.", type: { kind: "string" }, required: true, checked: true, nullable: false },
      { name: "code", description: "The error's code, such as `CONFLICT`.", type: { kind: "string" }, required: true, checked: true, nullable: false },
    ],
    open: false,
  },
];

/** Every answer model, by name. */
export function answerModels(): ReadonlyMap<string, ObjectModel> {
  const all = [...agentModel(), ...serviceObjectModels(), ...functionResultModels(), ...OTHER_MODELS];
  const byName = new Map<string, ObjectModel>();
  for (const model of all) {
    if (byName.has(model.name)) throw new Error(`two answer models named ${model.name}`);
    byName.set(model.name, model);
  }
  for (const model of all) {
    for (const m of model.members) {
      if (m.required && !m.checked) throw new Error(`${model.name}.${m.name} is required but not checked`);
      const ref = m.type.kind === "object" ? m.type.name : m.type.kind === "array" && m.type.items.kind === "object" ? m.type.items.name : undefined;
      if (ref !== undefined && !byName.has(ref)) throw new Error(`${model.name}.${m.name} names a model that does not exist: ${ref}`);
    }
  }
  return byName;
}
