/**
 * The rules of the Agent policy pack as plain functions of an Agent's inputs
 * and the rule's configuration: each returns the violations it finds, as
 * sentences. src/policy/pack.ts wires them into CrossGuard. Values that are
 * not known yet (a preview of a computed input) are skipped: the rule
 * checks them when they are known (@pulumi/policy stops a rule that reads
 * one and notes that it could not run during the preview). Messages quote
 * no input value but the registry a rule names, since an image may be a
 * secret.
 */
import { fromRegistry, parseImageReference } from "./image-reference";

/** The Agent inputs the rules read, as a policy sees them (any may be missing or not yet known). */
export type AgentProps = Record<string, unknown>;

export interface ImagePinnedConfig {
  /** Require a digest (`@sha256:…`), not just a tag. */
  requireDigest: boolean;
}
export interface MaxAgentsCapConfig {
  /** The largest `autoScaling.maxAgents` allowed. */
  cap: number;
}
export interface PrivateRegistryConfig {
  /** Registry hosts, or host/path prefixes, whose images need `imagePullSecretSet`. */
  privateRegistries: string[];
}

function scaling(props: AgentProps): { minAgents?: number; maxAgents?: number } {
  const value = props["autoScaling"];
  if (typeof value !== "object" || value === null) return {};
  const record = value as Record<string, unknown>;
  const out: { minAgents?: number; maxAgents?: number } = {};
  if (typeof record["minAgents"] === "number") out.minAgents = record["minAgents"];
  if (typeof record["maxAgents"] === "number") out.maxAgents = record["maxAgents"];
  return out;
}

export function checkImagePinned(props: AgentProps, config: ImagePinnedConfig): string[] {
  const image = props["image"];
  if (typeof image !== "string" || image === "") return [];
  const { tag, digest } = parseImageReference(image);
  if (config.requireDigest && digest === undefined) {
    return ["`image` has no digest; this pack requires one (`name@sha256:…`, option requireDigest)."];
  }
  if (digest !== undefined) return [];
  if (tag === undefined) return ["`image` has no tag or digest, so it runs whatever `latest` is; pin a version tag or a digest."];
  if (tag === "latest") return ["`image` uses the tag `latest`, which moves; pin a version tag or a digest."];
  return [];
}

export function checkMaxAgentsCap(props: AgentProps, config: MaxAgentsCapConfig): string[] {
  const { maxAgents } = scaling(props);
  if (maxAgents === undefined || maxAgents <= config.cap) return [];
  return [`\`autoScaling.maxAgents\` is ${maxAgents}, above this pack's cap of ${config.cap} (option cap).`];
}

export function checkScalingRange(props: AgentProps): string[] {
  const { minAgents, maxAgents } = scaling(props);
  if (minAgents === undefined || maxAgents === undefined || minAgents <= maxAgents) return [];
  return [`\`autoScaling.minAgents\` (${minAgents}) is above \`autoScaling.maxAgents\` (${maxAgents}); minAgents must be ≤ maxAgents.`];
}

export function checkPrivateRegistryPullSecret(props: AgentProps, config: PrivateRegistryConfig): string[] {
  const image = props["image"];
  if (typeof image !== "string") return [];
  const registry = fromRegistry(image, config.privateRegistries);
  if (registry === undefined) return [];
  const pullSecret = props["imagePullSecretSet"];
  if (typeof pullSecret === "string" && pullSecret !== "") return [];
  return [`\`image\` comes from the private registry \`${registry}\` (option privateRegistries), but \`imagePullSecretSet\` is not set.`];
}

/**
 * `onFailure` unset means the provider's default, `"keep"`
 * (src/resources/agent/fields.ts); both hosts' checks fill it in, so a
 * policy usually sees `"keep"` either way.
 */
export function checkOnFailureRollback(props: AgentProps): string[] {
  const value = props["onFailure"];
  if (value === "rollback" || (value !== undefined && typeof value !== "string")) return [];
  return ['`onFailure` is "keep" (its default when not set), so a failed deployment stays in place; this pack requires `onFailure: "rollback"`.'];
}

/**
 * An Agent that names a `secretSet` lists the fields it needs from it in
 * `requiredSecrets` (a provider setting: the preview then checks that the
 * set holds each one, so a missing field fails the preview instead of the
 * deployment). No `secretSet`, or one not known yet, is no violation.
 */
export function checkSecretSetRequiredSecrets(props: AgentProps): string[] {
  const secretSet = props["secretSet"];
  if (typeof secretSet !== "string" || secretSet === "") return [];
  const required = props["requiredSecrets"];
  if (required === undefined || required === null) {
    return ["`secretSet` is set, but `requiredSecrets` does not list the fields the agent needs from it, so the preview cannot check that the set holds them."];
  }
  if (Array.isArray(required) && required.length === 0) {
    return ["`secretSet` is set, but `requiredSecrets` is empty, so the preview checks no field of the set; list the fields the agent needs from it."];
  }
  return [];
}
