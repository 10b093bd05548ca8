/**
 * Bad Agent inputs, one broken field each: the field the error must name and
 * a pattern of the rule it must state. Shared by the client tier and the
 * real-engine tier.
 */
export interface BadInputCase {
  label: string;
  args: Record<string, unknown>;
  field: string;
  rule: RegExp;
}

const base = { serviceName: "valid-bot", image: "registry.example.com/bot:1.0" };
const bad = (label: string, change: Record<string, unknown>, field: string, rule: RegExp): BadInputCase => ({
  label,
  args: { ...base, ...change },
  field,
  rule,
});

export const BAD_INPUTS: BadInputCase[] = [
  bad("uppercase serviceName", { serviceName: "Voice-Bot" }, "serviceName", /lowercase/),
  bad("serviceName starting with a hyphen", { serviceName: "-bot" }, "serviceName", /must match/),
  bad("serviceName ending with a hyphen", { serviceName: "bot-" }, "serviceName", /must match/),
  bad("empty serviceName", { serviceName: "" }, "serviceName", /1 to 54/),
  bad("serviceName of 55 characters", { serviceName: "a".repeat(55) }, "serviceName", /1 to 54/),
  bad("serviceName with ../", { serviceName: "../etc" }, "serviceName", /must match/),
  bad("serviceName with %2F", { serviceName: "a%2Fb" }, "serviceName", /must match/),
  bad("serviceName with a space", { serviceName: "voice bot" }, "serviceName", /must match/),
  bad("unicode serviceName", { serviceName: "vöice-bot" }, "serviceName", /must match/),
  bad("serviceName not a string", { serviceName: 42 }, "serviceName", /string/),
  bad("empty image", { image: "" }, "image", /empty/),
  bad("image without a tag", { image: "registry.example.com/bot" }, "image", /tag/),
  bad("image with whitespace", { image: "bot :1" }, "image", /whitespace/),
  bad("image with a registry port but no tag", { image: "registry:5000/bot" }, "image", /tag/),
  bad("image with a malformed digest", { image: "bot@sha256:xyz" }, "image", /digest/),
  bad("image tag starting with a hyphen", { image: "bot:-rc1" }, "image", /tag must be/),
  bad("very long image without a tag", { image: "r".repeat(4000) }, "image", /tag/),
  bad("image not a string", { image: ["bot:1"] }, "image", /string/),
  bad("nodeType x86", { nodeType: "x86" }, "nodeType", /arm/),
  bad("nodeType ARM in capitals", { nodeType: "ARM" }, "nodeType", /arm/),
  bad("secretSet of 2 characters", { secretSet: "ab" }, "secretSet", /3 to 63/),
  bad("secretSet of 64 characters", { secretSet: "s".repeat(64) }, "secretSet", /3 to 63/),
  bad("secretSet with an underscore", { secretSet: "my_set" }, "secretSet", /DNS subdomain/),
  bad("secretSet with a path", { secretSet: "sets/../x" }, "secretSet", /DNS subdomain/),
  bad("imagePullSecretSet with a space", { imagePullSecretSet: "pull set" }, "imagePullSecretSet", /DNS subdomain/),
  bad("unicode imagePullSecretSet", { imagePullSecretSet: "püll-set" }, "imagePullSecretSet", /DNS subdomain/),
  bad("negative minAgents", { autoScaling: { minAgents: -1, maxAgents: 2 } }, "autoScaling.minAgents", /≥ 0/),
  bad("maxAgents of 0", { autoScaling: { minAgents: 0, maxAgents: 0 } }, "autoScaling.maxAgents", /≥ 1/),
  bad("minAgents above maxAgents", { autoScaling: { minAgents: 5, maxAgents: 2 } }, "autoScaling.minAgents", /≤ maxAgents/),
  bad("fractional minAgents", { autoScaling: { minAgents: 1.5, maxAgents: 2 } }, "autoScaling.minAgents", /integer/),
  bad("minAgents as a string", { autoScaling: { minAgents: "1", maxAgents: 2 } }, "autoScaling.minAgents", /integer/),
  bad("autoScaling with an unknown key", { autoScaling: { minAgents: 1, maxAgents: 2, max: 3 } }, "autoScaling", /unknown key/),
  bad("enableNoise as a string", { enableNoise: "yes" }, "enableNoise", /boolean/),
  bad("waitForReady as a string", { waitForReady: "true" }, "waitForReady", /boolean/),
  bad("readyTimeoutSeconds of 0", { readyTimeoutSeconds: 0 }, "readyTimeoutSeconds", /1 and 3600/),
  bad("readyTimeoutSeconds above an hour", { readyTimeoutSeconds: 99_999 }, "readyTimeoutSeconds", /1 and 3600/),
  bad("an unknown field", { region: "eu-west" }, "region", /not a known field/),
  { label: "missing image", args: { serviceName: "valid-bot" }, field: "image", rule: /required/ },
];

/** The provider settings are not part of the client's body. */
export const PROVIDER_ONLY_FIELDS = new Set(["waitForReady", "readyTimeoutSeconds"]);
