/**
 * The input rules of design section 2, shared by the provider's `check`, the
 * client (before any request is sent) and the emulator (400 answers).
 *
 * Every rule reports the field it belongs to, so a caller can turn the list
 * into per-property failures or one message naming every bad field.
 */
import { z } from "zod";

export const SERVICE_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
export const SECRET_SET_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const TAG_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST_PATTERN = /^sha256:[a-f0-9]{64}$/;

/** A failed rule: the dotted field path and what the rule requires. */
export interface RuleFailure {
  property: string;
  reason: string;
}

export function imageProblem(image: string): string | undefined {
  if (image.length === 0) return "must not be empty";
  if (/\s/.test(image)) return "must not contain whitespace";
  const at = image.indexOf("@");
  if (at >= 0) {
    return DIGEST_PATTERN.test(image.slice(at + 1)) && at > 0
      ? undefined
      : "a digest must have the form name@sha256:<64 hex digits>";
  }
  const lastSegment = image.slice(image.lastIndexOf("/") + 1);
  const colon = lastSegment.lastIndexOf(":");
  if (colon <= 0) return "must carry a tag (name:tag) or a digest (name@sha256:...)";
  if (!TAG_PATTERN.test(lastSegment.slice(colon + 1))) {
    return "the tag must be 1 to 128 characters of letters, digits, '_', '.' or '-', not starting with '.' or '-'";
  }
  return undefined;
}

export const serviceNameSchema = z
  .string({ error: "must be a string" })
  .min(1, { error: "must be 1 to 54 characters" })
  .max(54, { error: "must be 1 to 54 characters" })
  .regex(SERVICE_NAME_PATTERN, {
    error:
      "must match ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$: lowercase letters, digits and hyphens, starting and ending with a letter or digit",
  });

export const secretSetNameSchema = z
  .string({ error: "must be a string" })
  .min(3, { error: "must be 3 to 63 characters" })
  .max(63, { error: "must be 3 to 63 characters" })
  .regex(SECRET_SET_NAME_PATTERN, {
    error: "must be a lowercase DNS subdomain: letters, digits, '-' and '.', starting and ending with a letter or digit",
  });

export const imageSchema = z.string({ error: "must be a string" }).superRefine((value, ctx) => {
  const problem = imageProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const nodeTypeSchema = z.literal("arm", { error: 'only "arm" is supported' });

const integer = (min: number, rule: string) =>
  z
    .number({ error: "must be an integer" })
    .int({ error: "must be an integer" })
    .min(min, { error: rule });

export const autoScalingRequestSchema = z
  .object(
    {
      minAgents: integer(0, "must be an integer ≥ 0"),
      maxAgents: integer(1, "must be an integer ≥ 1"),
    },
    { error: "must be an object { minAgents, maxAgents }" },
  )
  .strict()
  .refine((s) => s.minAgents <= s.maxAgents, {
    message: "minAgents must be ≤ maxAgents",
    path: ["minAgents"],
  });

export const readyTimeoutSecondsSchema = z
  .number({ error: "must be a number" })
  .min(1, { error: "must be between 1 and 3600 seconds" })
  .max(3600, { error: "must be between 1 and 3600 seconds" });

/** The per-field rules of the POST body plus the two provider settings. */
export const agentFieldRules = {
  serviceName: serviceNameSchema,
  image: imageSchema,
  nodeType: nodeTypeSchema,
  imagePullSecretSet: secretSetNameSchema,
  secretSet: secretSetNameSchema,
  autoScaling: autoScalingRequestSchema,
  enableNoise: z.boolean({ error: "must be a boolean" }),
  waitForReady: z.boolean({ error: "must be a boolean" }),
  readyTimeoutSeconds: readyTimeoutSecondsSchema,
} as const;

export type AgentField = keyof typeof agentFieldRules;

export interface ValidateOptions {
  /** Fields that must be present. */
  required?: readonly AgentField[];
  /** Fields accepted at all (others are reported as not allowed). Defaults to every field. */
  allowed?: readonly AgentField[];
  /** Values that are not known yet (a preview's unknowns) and so pass every rule. */
  isUnknown?: (value: unknown) => boolean;
  /** Keys to ignore entirely (for example the dynamic provider's `__provider`). */
  ignoreKey?: (key: string) => boolean;
}

/** Checks every field and returns every failure, in field order. */
export function validateAgentFields(input: unknown, options: ValidateOptions = {}): RuleFailure[] {
  const failures: RuleFailure[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return [{ property: "", reason: "the body must be a JSON object" }];
  }
  const record = input as Record<string, unknown>;
  const isUnknown = options.isUnknown ?? (() => false);
  const allowed = new Set<string>(options.allowed ?? Object.keys(agentFieldRules));
  for (const field of options.required ?? []) {
    if (record[field] === undefined || record[field] === null) {
      failures.push({ property: field, reason: "is required" });
    }
  }
  for (const [key, value] of Object.entries(record)) {
    if (options.ignoreKey?.(key) || value === undefined) continue;
    if (!allowed.has(key)) {
      failures.push({ property: key, reason: "is not a known field" });
      continue;
    }
    if (value === null && !(options.required ?? []).includes(key as AgentField)) continue;
    if (value === null || isUnknown(value)) continue;
    const schema = agentFieldRules[key as AgentField];
    const checked = key === "autoScaling" ? partialUnknownAutoScaling(value, isUnknown) : value;
    if (checked === undefined) continue;
    const result = schema.safeParse(checked);
    if (!result.success) {
      const seen = new Set<string>();
      for (const issue of result.error.issues) {
        const path = [key, ...issue.path.map(String)].join(".");
        if (seen.has(path)) continue; // the first broken rule of a field is enough
        seen.add(path);
        failures.push({ property: path, reason: issue.message });
      }
    }
  }
  return failures;
}

/** autoScaling with unknown members: check only what is known. */
function partialUnknownAutoScaling(value: unknown, isUnknown: (v: unknown) => boolean): unknown {
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  const min = record["minAgents"];
  const max = record["maxAgents"];
  if (!isUnknown(min) && !isUnknown(max)) return value;
  if (isUnknown(min) && isUnknown(max)) return undefined;
  return { minAgents: isUnknown(min) ? 0 : min, maxAgents: isUnknown(max) ? Math.max(1, Number(min) || 1) : max };
}

/** One readable line naming every failure: `serviceName: must match ...; image: must carry a tag`. */
export function describeFailures(failures: readonly RuleFailure[]): string {
  return failures.map((f) => (f.property ? `${f.property}: ${f.reason}` : f.reason)).join("; ");
}

export const CREATE_FIELDS = [
  "serviceName",
  "image",
  "nodeType",
  "imagePullSecretSet",
  "secretSet",
  "autoScaling",
  "enableNoise",
] as const satisfies readonly AgentField[];

export const UPDATE_FIELDS = CREATE_FIELDS.filter((f) => f !== "serviceName");
