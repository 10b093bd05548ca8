/** The Agent policy pack's rules as plain functions, and the image references they read. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as crossGuard from "@pulumi/policy";
import type { ResourceValidation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { describe, expect, it } from "vitest";
import {
  checkImagePinned,
  checkMaxAgentsCap,
  checkOnFailureRollback,
  checkPrivateRegistryPullSecret,
  checkScalingRange,
  checkSecretSetRequiredSecrets,
  AGENT_POLICY_NAMES,
  agentPolicies,
  fromRegistry,
  isAgentResource,
  parseImageReference,
} from "../../src/policy";
import { DYNAMIC_AGENT_TYPE, NATIVE_AGENT_TYPE, PROVIDER_IMPLEMENTATION_MODULE } from "../../src/resources/agent/type-tokens";

describe("parseImageReference", () => {
  it.each([
    ["bot", { repository: "bot" }],
    ["bot:1.2", { repository: "bot", tag: "1.2" }],
    ["library/bot:latest", { repository: "library/bot", tag: "latest" }],
    ["registry.example.com/team/bot:1", { registry: "registry.example.com", repository: "registry.example.com/team/bot", tag: "1" }],
    ["localhost:5000/bot", { registry: "localhost:5000", repository: "localhost:5000/bot" }],
    ["ghcr.io/acme/bot@sha256:abc", { registry: "ghcr.io", repository: "ghcr.io/acme/bot", digest: "sha256:abc" }],
    ["ghcr.io/acme/bot:2@sha256:abc", { registry: "ghcr.io", repository: "ghcr.io/acme/bot", tag: "2", digest: "sha256:abc" }],
  ])("%s", (image, expected) => {
    expect(parseImageReference(image)).toEqual(expected);
  });

  it("matches registries by host or host/path prefix on whole segments, case-insensitively", () => {
    expect(fromRegistry("registry.example.com/bot:1", ["registry.example.com"])).toBe("registry.example.com");
    expect(fromRegistry("REGISTRY.example.com/bot:1", ["registry.example.com/"])).toBe("registry.example.com/");
    expect(fromRegistry("ghcr.io/acme/bot:1", ["ghcr.io/acme"])).toBe("ghcr.io/acme");
    expect(fromRegistry("ghcr.io/acme-other/bot:1", ["ghcr.io/acme"])).toBeUndefined();
    expect(fromRegistry("registry.example.com.evil/bot:1", ["registry.example.com"])).toBeUndefined();
    expect(fromRegistry("bot:1", ["bot"])).toBeUndefined();
  });
});

describe("the rules", () => {
  it("agent-image-pinned: refuses :latest and an untagged image; a digest can be required", () => {
    expect(checkImagePinned({ image: "registry.example.com/bot:latest" }, { requireDigest: false })[0]).toContain("tag `latest`");
    expect(checkImagePinned({ image: "registry.example.com/bot" }, { requireDigest: false })[0]).toContain("no tag or digest");
    expect(checkImagePinned({ image: "registry.example.com/bot:1.4.2" }, { requireDigest: false })).toEqual([]);
    expect(checkImagePinned({ image: "bot@sha256:abc" }, { requireDigest: false })).toEqual([]);
    expect(checkImagePinned({ image: "registry.example.com/bot:1.4.2" }, { requireDigest: true })[0]).toContain("no digest");
    expect(checkImagePinned({ image: "registry.example.com/bot:1@sha256:abc" }, { requireDigest: true })).toEqual([]);
    // A value not known yet is checked when it is.
    expect(checkImagePinned({}, { requireDigest: true })).toEqual([]);
  });

  it("agent-max-agents-cap: maxAgents at most the cap", () => {
    expect(checkMaxAgentsCap({ autoScaling: { minAgents: 1, maxAgents: 11 } }, { cap: 10 })).toEqual([
      "`autoScaling.maxAgents` is 11, above this pack's cap of 10 (option cap).",
    ]);
    expect(checkMaxAgentsCap({ autoScaling: { minAgents: 1, maxAgents: 10 } }, { cap: 10 })).toEqual([]);
    expect(checkMaxAgentsCap({}, { cap: 1 })).toEqual([]);
  });

  it("agent-scaling-range: minAgents ≤ maxAgents", () => {
    expect(checkScalingRange({ autoScaling: { minAgents: 4, maxAgents: 2 } })).toEqual([
      "`autoScaling.minAgents` (4) is above `autoScaling.maxAgents` (2); minAgents must be ≤ maxAgents.",
    ]);
    expect(checkScalingRange({ autoScaling: { minAgents: 2, maxAgents: 2 } })).toEqual([]);
  });

  it("agent-private-registry-pull-secret: imagePullSecretSet for images of the configured registries, without quoting the image", () => {
    const config = { privateRegistries: ["registry.example.com"] };
    const [message] = checkPrivateRegistryPullSecret({ image: "registry.example.com/secret-bot:token-1" }, config);
    expect(message).toBe("`image` comes from the private registry `registry.example.com` (option privateRegistries), but `imagePullSecretSet` is not set.");
    expect(message).not.toContain("token-1");
    expect(checkPrivateRegistryPullSecret({ image: "registry.example.com/bot:1", imagePullSecretSet: "pull-creds" }, config)).toEqual([]);
    expect(checkPrivateRegistryPullSecret({ image: "docker.io/library/bot:1" }, config)).toEqual([]);
  });
});

describe("agent-on-failure-rollback", () => {
  const policy = agentPolicies().find((p) => p.name === AGENT_POLICY_NAMES.onFailureRollback) as ResourceValidationPolicy;
  const validate = policy.validateResource as ResourceValidation;
  // @pulumi/policy's server hands a policy the inputs through this proxy, which throws UnknownValueError on a value not known yet.
  const { unknownCheckingProxy, UnknownValueError } = crossGuard as unknown as {
    unknownCheckingProxy: (props: Record<string, unknown>) => Record<string, unknown>;
    UnknownValueError: new () => Error;
  };
  /** Runs the policy on a native Agent "keep-bot" with these inputs; its violations land in `found`. */
  const run = (props: Record<string, unknown>, found: string[]): void => {
    const args = { type: NATIVE_AGENT_TYPE, name: "keep-bot", props: unknownCheckingProxy(props), getConfig: () => ({}) } as unknown as ResourceValidationArgs;
    void validate(args, (message: string) => found.push(message));
  };

  it("an Agent without onFailure has the default keep and violates it; rollback passes", () => {
    const message = '`onFailure` is "keep" (its default when not set), so a failed deployment stays in place; this pack requires `onFailure: "rollback"`.';
    expect(checkOnFailureRollback({ image: "bot:1" })).toEqual([message]);
    expect(checkOnFailureRollback({ onFailure: "keep" })).toEqual([message]);
    expect(checkOnFailureRollback({ onFailure: "rollback" })).toEqual([]);
  });

  it("is advisory unless configured, and a violation names the Agent", () => {
    expect(policy.enforcementLevel).toBe("advisory");
    const found: string[] = [];
    run({ serviceName: "keep-bot", onFailure: "keep" }, found);
    run({ serviceName: "keep-bot", onFailure: "rollback" }, found);
    expect(found).toEqual([expect.stringMatching(/^Agent "keep-bot": `onFailure` is "keep"/)]);
  });

  it("an onFailure not known at preview is no violation: @pulumi/policy skips the rule until it is known", () => {
    const found: string[] = [];
    expect(() => run({ serviceName: "keep-bot", onFailure: unknownValue }, found)).toThrow(UnknownValueError);
    expect(found).toEqual([]);
  });
});

describe("agent-secret-set-required-secrets", () => {
  const policy = agentPolicies().find((p) => p.name === AGENT_POLICY_NAMES.secretSetRequiredSecrets) as ResourceValidationPolicy;
  const validate = policy.validateResource as ResourceValidation;
  const { unknownCheckingProxy, UnknownValueError } = crossGuard as unknown as {
    unknownCheckingProxy: (props: Record<string, unknown>) => Record<string, unknown>;
    UnknownValueError: new () => Error;
  };
  const MISSING =
    "`secretSet` is set, but `requiredSecrets` does not list the fields the agent needs from it, so the preview cannot check that the set holds them.";
  const EMPTY = "`secretSet` is set, but `requiredSecrets` is empty, so the preview checks no field of the set; list the fields the agent needs from it.";
  /** Runs the policy on an Agent "voice-bot" of `type` with these inputs; its violations land in `found`. */
  const run = (type: string, props: Record<string, unknown>, found: string[]): void => {
    const args = { type, name: "voice-bot", props: unknownCheckingProxy(props), getConfig: () => ({}) } as unknown as ResourceValidationArgs;
    void validate(args, (message: string) => found.push(message));
  };

  it("an Agent with a secretSet and no requiredSecrets, or an empty list, violates it; a listed field, or no secretSet, passes", () => {
    expect(checkSecretSetRequiredSecrets({ secretSet: "voice-secrets" })).toEqual([MISSING]);
    expect(checkSecretSetRequiredSecrets({ secretSet: "voice-secrets", requiredSecrets: [] })).toEqual([EMPTY]);
    expect(checkSecretSetRequiredSecrets({ secretSet: "voice-secrets", requiredSecrets: ["TOKEN"] })).toEqual([]);
    expect(checkSecretSetRequiredSecrets({ image: "bot:1" })).toEqual([]);
    // The message quotes no value: neither the set's name nor a field's.
    expect(`${MISSING}${EMPTY}`).not.toContain("voice-secrets");
  });

  it("is advisory unless configured; a violation names the Agent, on the dynamic and the native Agent alike", () => {
    expect(policy.enforcementLevel).toBe("advisory");
    expect(policy.configSchema).toBeUndefined();
    for (const type of [DYNAMIC_AGENT_TYPE, NATIVE_AGENT_TYPE]) {
      const found: string[] = [];
      run(type, { serviceName: "voice-bot", secretSet: "voice-secrets" }, found);
      run(type, { serviceName: "voice-bot", secretSet: "voice-secrets", requiredSecrets: ["TOKEN", "SIP_PASSWORD"] }, found);
      expect(found).toEqual([`Agent "voice-bot": ${MISSING}`]);
    }
    const other: string[] = [];
    run("aws:s3/bucket:Bucket", { secretSet: "voice-secrets" }, other);
    expect(other).toEqual([]);
  });

  it("a secretSet or requiredSecrets not known at preview is no violation: @pulumi/policy skips the rule until it is known", () => {
    const found: string[] = [];
    expect(() => run(NATIVE_AGENT_TYPE, { serviceName: "voice-bot", secretSet: unknownValue }, found)).toThrow(UnknownValueError);
    expect(() => run(NATIVE_AGENT_TYPE, { serviceName: "voice-bot", secretSet: "voice-secrets", requiredSecrets: unknownValue }, found)).toThrow(UnknownValueError);
    expect(found).toEqual([]);
  });
});

describe("isAgentResource", () => {
  it("knows the dynamic and the native Agent by their type tokens, and the generic dynamic type by its provider code", () => {
    expect(isAgentResource(DYNAMIC_AGENT_TYPE, {})).toBe(true);
    expect(isAgentResource(NATIVE_AGENT_TYPE, {})).toBe(true);
    expect(isAgentResource("pulumi-nodejs:dynamic:Resource", { __provider: `require("${PROVIDER_IMPLEMENTATION_MODULE}")` })).toBe(true);
    expect(isAgentResource("pulumi-nodejs:dynamic:Resource", { __provider: "other" })).toBe(false);
    expect(isAgentResource("aws:s3/bucket:Bucket", {})).toBe(false);
  });
});

describe("the pack's documentation", () => {
  const root = join(__dirname, "../..");
  const read = (path: string) => readFileSync(join(root, path), "utf8");

  it("every policy is in the README's table, the pipeline example's README and its policy-config.json, at its default level", () => {
    const names = agentPolicies().map((p) => p.name);
    expect(names).toEqual(Object.values(AGENT_POLICY_NAMES));
    const config = JSON.parse(read("examples/pipeline/policy-pack/policy-config.json")) as Record<string, unknown>;
    expect(Object.keys(config).sort()).toEqual([...names].sort());
    for (const name of names) {
      expect(read("README.md"), name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, "m"));
      expect(read("examples/pipeline/README.md"), name).toContain(`\`${name}\``);
    }
    expect(config[AGENT_POLICY_NAMES.secretSetRequiredSecrets]).toBe("advisory");
  });
});
