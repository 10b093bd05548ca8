/**
 * The agent's request bodies as the service takes them: each field of
 * POST /agents (and, but serviceName, of POST /agents/{name}), the service's
 * rule for its value, what the service takes when a create leaves it out,
 * and where the manifest the service reports for the agent shows it. The
 * client checks a body against these rules before it sends it; the Agent's
 * field table (src/resources/agent/fields.ts) reuses them for the fields it
 * sends. The bodies' types are generated (src/client/request-types.ts).
 */
import { BOOLEAN_RULES, WHITESPACE, integerTests, objectRules, stringTests } from "./field-rules";
import type { FieldRules, ValueTest } from "./field-rules";
import type { ServiceAgent } from "./answer-types";
import type { CreateAgentBody } from "./request-types";
import { sameJson } from "./same-json";
import { SECRET_SET_NAME_TESTS, SERVICE_NAME_TESTS } from "./service-names";

/** How a request field appears in the manifest's `spec`, both ways. */
export interface ManifestMapping {
  /** Path below `manifest.spec`. */
  path: readonly string[];
  /** The manifest value for a request value (undefined when the field is left out of the request). */
  toManifest(value: unknown): unknown;
  /** The request value a manifest value stands for (undefined: not set, or not readable). */
  fromManifest(value: unknown): unknown;
}

/** A field of the create body. */
export interface BodyField {
  name: keyof CreateAgentBody;
  required: boolean;
  /** Its rules, as data (src/client/field-rules.ts). */
  rules: FieldRules;
  /** Where the manifest the service reports shows it (serviceName: nowhere, it is the agent's name). */
  manifest?: ManifestMapping;
  /**
   * A create that leaves it out: "default", the service takes `default`;
   * "chosen", the service chooses (and reports it at the top of its answer
   * under the same name too); "none", it is not set.
   */
  leftOut: "default" | "chosen" | "none";
  default?: string | boolean;
}

/**
 * A container reference: a tag (`name:tag`, the tag after the last `:` of the
 * last path segment) or a digest (`name@sha256:<64 hex digits>`).
 */
export const IMAGE_TESTS: readonly ValueTest[] = stringTests(
  { length: { min: 1 }, reason: "must not be empty" },
  { lacks: WHITESPACE, reason: "must not contain whitespace" },
  { matches: "^[^@]+@sha256:[a-f0-9]{64}$", when: "@", reason: "a digest must have the form name@sha256:<64 hex digits>" },
  { matches: "(^|/)[^/]+:[^/]*$", unless: "@", reason: "must carry a tag (name:tag) or a digest (name@sha256:...)" },
  {
    matches: ":[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$",
    unless: "@",
    reason: "the tag must be 1 to 128 characters of letters, digits, '_', '.' or '-', not starting with '.' or '-'",
  },
);

const NODE_TYPE_RULES: FieldRules = { tests: [{ oneOf: ["arm"], reason: 'only "arm" is supported' }] };

/** autoScaling { minAgents, maxAgents }: integers, 0 ≤ min ≤ max, max ≥ 1. Unknown members pass. */
const AUTO_SCALING_RULES: FieldRules = objectRules(
  [
    { name: "minAgents", tests: integerTests("must be an integer ≥ 0", { min: 0 }) },
    { name: "maxAgents", tests: integerTests("must be an integer ≥ 1", { min: 1 }) },
  ],
  [{ member: "minAgents", atMost: "maxAgents", reason: "minAgents must be ≤ maxAgents" }],
);

/** autoScaling's request shape from the replicas the service reports, or undefined when it does not report both. */
export function scalingFromReplicas(v: unknown): { minAgents: number; maxAgents: number } | undefined {
  const s = v as { minReplicas?: unknown; maxReplicas?: unknown } | undefined;
  return typeof s?.minReplicas === "number" && typeof s.maxReplicas === "number" ? { minAgents: s.minReplicas, maxAgents: s.maxReplicas } : undefined;
}

const same = (path: string[]): ManifestMapping => ({ path, toManifest: (v) => v, fromManifest: (v) => v });

/** A set name is reported as a list of names: [] when none is set. */
const setList = (path: string[]): ManifestMapping => ({
  path,
  toManifest: (v) => (v === undefined ? [] : [v]),
  fromManifest: (v) => (Array.isArray(v) && typeof v[0] === "string" ? v[0] : undefined),
});

/** A secret set the agent names, reported in the manifest as a list under `path`. */
function secretSetField<N extends "imagePullSecretSet" | "secretSet">(name: N, path: string) {
  return { name, required: false, rules: { tests: SECRET_SET_NAME_TESTS }, manifest: setList([path]), leftOut: "none" } as const;
}

/** The create body's fields, by name, in the order they are checked. */
export const AGENT_BODY = {
  serviceName: { name: "serviceName", required: true, rules: { tests: SERVICE_NAME_TESTS }, leftOut: "none" },
  image: { name: "image", required: true, rules: { tests: IMAGE_TESTS }, manifest: same(["image"]), leftOut: "none" },
  nodeType: { name: "nodeType", required: false, rules: NODE_TYPE_RULES, manifest: same(["platformNodeType"]), leftOut: "default", default: "arm" },
  imagePullSecretSet: secretSetField("imagePullSecretSet", "imagePullSecretNames"),
  secretSet: secretSetField("secretSet", "envFromSecretNames"),
  autoScaling: {
    name: "autoScaling",
    required: false,
    rules: AUTO_SCALING_RULES,
    manifest: {
      path: ["autoScaling"],
      toManifest: (v: unknown) => {
        const s = v as { minAgents: number; maxAgents: number } | undefined;
        return s === undefined ? undefined : { minReplicas: s.minAgents, maxReplicas: s.maxAgents };
      },
      fromManifest: scalingFromReplicas,
    },
    leftOut: "chosen",
  },
  enableNoise: {
    name: "enableNoise",
    required: false,
    rules: BOOLEAN_RULES,
    manifest: {
      path: ["noiseModels", "enabled"],
      toManifest: (v: unknown) => v,
      fromManifest: (v: unknown) => (typeof v === "boolean" ? v : undefined),
    },
    leftOut: "default",
    default: false,
  },
} as const;

const BY_NAME: { readonly [K in keyof CreateAgentBody]-?: BodyField } = AGENT_BODY;

/** The create body's fields. */
export const CREATE_BODY_FIELDS: readonly BodyField[] = Object.values(BY_NAME);

/** The update body's fields: the create body's but serviceName, which the path names. */
export const UPDATE_BODY_FIELDS: readonly BodyField[] = CREATE_BODY_FIELDS.filter((f) => f.name !== "serviceName");

/** The member of a manifest's `spec` at `path`, and whether the spec has it (a value may be null or absent). */
export function manifestValueAt(spec: unknown, path: readonly string[]): { found: boolean; value: unknown } {
  let node: unknown = spec;
  for (const key of path) {
    if (typeof node !== "object" || node === null || !(key in node)) return { found: false, value: undefined };
    node = (node as Record<string, unknown>)[key];
  }
  return { found: true, value: node };
}

/**
 * Whether the service reports for `agent` exactly what a create body asks
 * for (the client's reading of an agent found after an ambiguous create). A
 * field the service does not report matches only when the body leaves it
 * out, so an agent is never taken for the one posted on a guess.
 */
export function reportsBody(agent: ServiceAgent, sent: CreateAgentBody): boolean {
  const body: Record<string, unknown> = { ...sent };
  const spec = agent.deployment?.manifest?.spec;
  if (spec === undefined) return false;
  for (const field of CREATE_BODY_FIELDS) {
    if (!field.manifest) continue;
    const declared = body[field.name] ?? field.default;
    if (field.leftOut === "chosen") {
      if (declared === undefined) continue;
      const live = field.manifest.fromManifest(agent[field.name] ?? manifestValueAt(spec, field.manifest.path).value);
      if (!sameJson(live, declared)) return false;
      continue;
    }
    const found = manifestValueAt(spec, field.manifest.path);
    if (!found.found) {
      if (declared !== undefined) return false;
      continue;
    }
    if (!sameJson(found.value, field.manifest.toManifest(declared))) return false;
  }
  return true;
}
