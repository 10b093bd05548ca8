/**
 * The three read-only functions, getSecretSet, getAgentLogs (the log query)
 * and getImageDigest (what an image's tag names now, asked of its registry):
 * their arguments and results, each documented, for the package schema and
 * the README. The arguments' rules are checked by the client before any
 * request (src/client/logs-query.ts and src/client/service-names.ts), and an
 * image by the resolver's parser (src/image-registry/oci-reference.ts).
 */
import { LOG_RESULT_FIELDS } from "../client/answer-tables";
import type { FunctionEntry } from "../core/resource-entry";
import type { SchemaExample } from "../core/schema-docs";

/** A function's part of its registry entry (src/core/resource-entry.ts) that documents it. */
export interface FunctionDoc extends Pick<FunctionEntry, "description" | "args" | "argsType" | "result"> {
  name: "getSecretSet" | "getAgentLogs" | "getImageDigest";
  examples: readonly SchemaExample[];
}

export const FUNCTION_DOCS: readonly FunctionDoc[] = [
  {
    name: "getSecretSet",
    description: "The field names of a secret set (its values are never returned).",
    examples: [{ dir: "get-secret-set", title: "An agent loading a secret set, with the set's field names" }],
    args: [{ name: "name", type: "string", required: true, description: "Name of the secret set, 3 to 63 characters." }],
    result: [
      { name: "name", type: "string", required: true, description: "Name of the secret set." },
      { name: "fieldNames", type: "array", items: "string", required: true, description: "Names of the set's fields." },
    ],
  },
  {
    name: "getAgentLogs",
    description: "One page of an agent's logs.",
    examples: [{ dir: "get-agent-logs", title: "The newest log lines of an agent" }],
    argsType: "AgentLogsQuery",
    args: [
      { name: "agentName", type: "string", required: true, description: "Name of the agent." },
      { name: "limit", type: "integer", description: "Entries per page, 1 to 1000. Left out, the service returns 10." },
      { name: "offset", type: "integer", description: "Entries to skip, ≥ 0. Left out, none are skipped (0)." },
      { name: "deploymentId", type: "string", description: "Only this deployment's entries." },
      { name: "query", type: "string", description: "Only entries containing this text." },
      { name: "order", type: "string", tsType: { type: '"asc" | "desc"', name: "LogOrder" }, description: 'Order by time: "asc" or "desc". Left out, the service answers "desc" (the newest entry first).' },
      { name: "startTime", type: "integer", acceptsDate: true, description: "Only entries at or after this time, in Unix seconds." },
      { name: "endTime", type: "integer", acceptsDate: true, description: "Only entries before this time, in Unix seconds." },
    ],
    result: LOG_RESULT_FIELDS,
  },
  {
    name: "getImageDigest",
    description:
      "The digest an image's tag names now, asked of the image's registry (the OCI distribution API), with the same credentials and " +
      "settings as an Agent's pinning: the docker config file, `agent-hosting:registryAuth`, `agent-hosting:allowInsecureHttp`. A digest-form " +
      "image is answered as written, without a request. Use it to pin other resources to the build an Agent runs.",
    examples: [{ dir: "get-image-digest", title: "An agent deployed from the build a tag names now" }],
    args: [{ name: "image", type: "string", required: true, description: "The image, tag form (`name:tag`, `name` for `latest`) or digest form (`name@sha256:…`)." }],
    result: [
      { name: "image", type: "string", required: true, description: "The image as given." },
      { name: "digest", type: "string", required: true, description: "The digest the tag names now (`sha256:…`); for a multi-arch image, its index's digest." },
      { name: "pinnedImage", type: "string", required: true, description: "The image's name as given, `@`, the digest: `name@sha256:…`." },
    ],
  },
];

/** The argument names of a function, in the order the schema lists them. */
export function argNamesOf(name: FunctionDoc["name"]): readonly string[] {
  const fn = docOf(name);
  return fn.args.map((a) => a.name);
}

export function docOf(name: FunctionDoc["name"]): FunctionDoc {
  const fn = FUNCTION_DOCS.find((f) => f.name === name);
  if (!fn) throw new Error(`no function ${name}`);
  return fn;
}
