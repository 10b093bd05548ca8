/**
 * The outputs of Agent beyond its inputs: the service's answer (its members
 * are the client's, src/client/answer-tables.ts) and the deployment's
 * manifest. Each input is an output too, with the value the service reports
 * for it where it reports one (so drift shows), else the declared value.
 * Then the named object types of the package schema for what the service
 * reports of a deployment.
 */
import { AGENT_ANSWER_MEMBERS, SERVICE_OBJECT_TYPES } from "../../client/answer-tables";
import type { ServiceObjectMember } from "../../client/answer-tables";
import { outputTable } from "../../core/field-table";

export const AGENT_OUTPUTS = outputTable([
  ...AGENT_ANSWER_MEMBERS,
  {
    name: "manifest",
    type: "object",
    tsType: "Manifest | null",
    description:
      "The manifest of the deployment the `deployment` output describes, exactly as the service reports it (`apiVersion`, `kind`, `metadata`, `spec` and any other field); null while the service reports none. Secret when any input it reflects is secret.",
    reliedOn: false,
  },
] as const);

export type AgentOutputName = (typeof AGENT_OUTPUTS)[number]["name"];

/** The schema's named object types of a deployment and its manifest are the service's (src/client/answer-tables.ts). */
export { SERVICE_OBJECT_TYPES };

/** The schema's `types` entries of these object types, each under `token(name)`. */
export function serviceObjectTypes(token: (name: string) => string): Record<string, unknown> {
  const member = (m: ServiceObjectMember) => {
    if ("typeName" in m) return { description: m.description, $ref: `#/types/${token(m.typeName)}` };
    if (m.type === "array") return { description: m.description, type: "array", items: { type: "string" } };
    return { description: m.description, type: m.type };
  };
  return Object.fromEntries(
    SERVICE_OBJECT_TYPES.map((t) => [
      token(t.name),
      { type: "object", description: t.description, properties: Object.fromEntries(t.members.map((m) => [m.name, member(m)])) },
    ]),
  );
}

/** The Agent outputs typed by these object types: output name → type name. */
export const TYPED_OUTPUTS: Readonly<Record<string, string>> = { deployment: "Deployment", manifest: "Manifest" };
