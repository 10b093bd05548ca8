/**
 * The Agent policy pack for Pulumi CrossGuard (`@pulumi/policy`, an optional
 * peer dependency of this package). Each rule is one policy: its enforcement
 * level (mandatory, advisory, disabled) and its options are set in the pack's
 * config (`pulumi preview --policy-pack DIR --policy-pack-config FILE`), each
 * option described by the policy's configSchema.
 */
import { PolicyPack } from "@pulumi/policy";
import type { EnforcementLevel, PolicyConfigSchema, ResourceValidationPolicy } from "@pulumi/policy";
import * as rules from "./agent-rules";
import type { AgentProps } from "./agent-rules";
import { isAgentResource } from "./agent-resource";

/** The pack's policy names, which its config keys. */
export const AGENT_POLICY_NAMES = {
  imagePinned: "agent-image-pinned",
  maxAgentsCap: "agent-max-agents-cap",
  scalingRange: "agent-scaling-range",
  privateRegistryPullSecret: "agent-private-registry-pull-secret",
  onFailureRollback: "agent-on-failure-rollback",
  secretSetRequiredSecrets: "agent-secret-set-required-secrets",
} as const;

export const DEFAULT_MAX_AGENTS_CAP = 10;

function agentPolicy<C extends object>(
  name: string,
  description: string,
  enforcementLevel: EnforcementLevel,
  configSchema: PolicyConfigSchema | undefined,
  check: (props: AgentProps, config: C) => string[],
): ResourceValidationPolicy {
  return {
    name,
    description,
    enforcementLevel,
    ...(configSchema ? { configSchema } : {}),
    validateResource: (args, reportViolation) => {
      if (!isAgentResource(args.type, args.props)) return;
      for (const message of check(args.props, args.getConfig<C>())) reportViolation(`Agent "${args.name}": ${message}`);
    },
  };
}

/** The pack's policies, for a pack of your own (`new PolicyPack(name, { policies: [...agentPolicies(), ...yours] })`). */
export function agentPolicies(): ResourceValidationPolicy[] {
  return [
    agentPolicy(
      AGENT_POLICY_NAMES.imagePinned,
      "An Agent's image carries a version tag other than `latest`, or a digest (a digest can be required).",
      "mandatory",
      { properties: { requireDigest: { type: "boolean", default: false, description: "Require `name@sha256:…`, not only a tag." } } },
      rules.checkImagePinned,
    ),
    agentPolicy(
      AGENT_POLICY_NAMES.maxAgentsCap,
      "An Agent's `autoScaling.maxAgents` stays at or below a cap.",
      "advisory",
      {
        properties: {
          cap: { type: "integer", minimum: 1, default: DEFAULT_MAX_AGENTS_CAP, description: "The largest maxAgents allowed." },
        },
      },
      rules.checkMaxAgentsCap,
    ),
    agentPolicy(
      AGENT_POLICY_NAMES.scalingRange,
      "An Agent's `autoScaling.minAgents` is at most its `autoScaling.maxAgents`.",
      "mandatory",
      undefined,
      (props) => rules.checkScalingRange(props),
    ),
    agentPolicy(
      AGENT_POLICY_NAMES.privateRegistryPullSecret,
      "An Agent whose image comes from a configured private registry sets `imagePullSecretSet`.",
      "mandatory",
      {
        properties: {
          privateRegistries: {
            type: "array",
            items: { type: "string" },
            default: [],
            description: "Registry hosts (registry.example.com, localhost:5000) or host/path prefixes (ghcr.io/acme).",
          },
        },
      },
      rules.checkPrivateRegistryPullSecret,
    ),
    // Advisory by default, like the cap: "keep" is the provider's default and a sound
    // choice; a team that wants rollback makes the rule mandatory in its config.
    agentPolicy(
      AGENT_POLICY_NAMES.onFailureRollback,
      'An Agent sets `onFailure: "rollback"`, so a failed deployment goes back to the last ready spec (unset means "keep").',
      "advisory",
      undefined,
      (props) => rules.checkOnFailureRollback(props),
    ),
    // Advisory by default: an agent may need no field of its set by name; a team that
    // wants every set's fields checked at preview makes the rule mandatory in its config.
    agentPolicy(
      AGENT_POLICY_NAMES.secretSetRequiredSecrets,
      "An Agent with a `secretSet` lists in `requiredSecrets` the fields it needs from it, so the preview checks that the set holds them.",
      "advisory",
      undefined,
      (props) => rules.checkSecretSetRequiredSecrets(props),
    ),
  ];
}

/**
 * Creates the pack: a policy pack's program is `createAgentPolicyPack()` (or
 * `createAgentPolicyPack("my-pack")`) in the index.js of a directory with a
 * PulumiPolicy.yaml.
 */
export function createAgentPolicyPack(name = "agent-hosting"): PolicyPack {
  return new PolicyPack(name, {
    description: "Rules for Agents of the Agent Hosting Service (pulumi-agent-hosting): pinned images, scaling, pull secrets, rollback on failure, the fields required of secret sets.",
    policies: agentPolicies(),
  });
}
