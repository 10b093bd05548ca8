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
  bad("onFailure revert", { onFailure: "revert" }, "onFailure", /"keep" or "rollback"/),
  bad("healthCheck with an empty query", { healthCheck: { failOnLogQuery: " ", watchSeconds: 30 } }, "healthCheck.failOnLogQuery", /must not be empty/),
  bad("healthCheck watching 0 seconds", { healthCheck: { failOnLogQuery: "panic", watchSeconds: 0 } }, "healthCheck.watchSeconds", /1 to 3600/),
  bad("healthCheck watching above an hour", { healthCheck: { failOnLogQuery: "panic", watchSeconds: 3601 } }, "healthCheck.watchSeconds", /1 to 3600/),
  bad("an unknown field", { region: "eu-west" }, "region", /not a known field/),
  { label: "missing image", args: { serviceName: "valid-bot" }, field: "image", rule: /required/ },
];

/** The provider settings are not part of the client's body. */
export const PROVIDER_ONLY_FIELDS = new Set(["waitForReady", "readyTimeoutSeconds", "onFailure", "healthCheck"]);

/**
 * Connection settings with one mistake each: which setting, the value, and a
 * pattern of the fix the error must state. The key's cases hold a key that is
 * otherwise valid, so a test can check that no part of it is echoed.
 */
export interface BadSettingCase {
  label: string;
  setting: "baseUrl" | "apiKey";
  value: string;
  rule: RegExp;
}

export const VALID_KEY = "sk-settings-SECRET-7f3a";

export const BAD_SETTINGS: BadSettingCase[] = [
  { label: "key with a trailing newline", setting: "apiKey", value: `${VALID_KEY}\n`, rule: /ends with a line break.*without surrounding whitespace/ },
  { label: "key with a trailing CRLF", setting: "apiKey", value: `${VALID_KEY}\r\n`, rule: /ends with a line break/ },
  { label: "key with a leading space", setting: "apiKey", value: ` ${VALID_KEY}`, rule: /starts with a space/ },
  { label: "key with a trailing tab", setting: "apiKey", value: `${VALID_KEY}\t`, rule: /ends with a tab/ },
  { label: "key with a line break inside", setting: "apiKey", value: `${VALID_KEY}\nsecond`, rule: /a line break at position 24.*Authorization header/ },
  { label: "key with a control character", setting: "apiKey", value: `${VALID_KEY}\u0007`, rule: /control character \(U\+0007\)/ },
  { label: "key with a non-ASCII character", setting: "apiKey", value: `${VALID_KEY}é`, rule: /non-ASCII character \(U\+00E9\)/ },
  { label: "key with a space inside", setting: "apiKey", value: `sk settings`, rule: /a space at position 3/ },
  { label: "key pasted with its Bearer prefix", setting: "apiKey", value: `Bearer ${VALID_KEY}`, rule: /without the "Bearer " prefix/ },
  { label: "base URL with credentials", setting: "baseUrl", value: "https://user:pw@api.example.com/v1", rule: /must not carry credentials.*API key belongs in/ },
  { label: "base URL with a user only", setting: "baseUrl", value: "https://user@api.example.com/v1", rule: /must not carry credentials/ },
  { label: "base URL with a query", setting: "baseUrl", value: "https://api.example.com/v1?region=eu", rule: /must not carry a query or fragment/ },
  { label: "base URL with a bare ?", setting: "baseUrl", value: "https://api.example.com/v1?", rule: /must not carry a query or fragment/ },
  { label: "base URL with a fragment", setting: "baseUrl", value: "https://api.example.com/v1#top", rule: /must not carry a query or fragment/ },
  { label: "base URL without /v1", setting: "baseUrl", value: "https://api.example.com", rule: /must end with the version segment \/v1.*https:\/\/api\.example\.com\/v1/ },
  { label: "base URL with /v2", setting: "baseUrl", value: "https://api.example.com/v2", rule: /must end with the version segment \/v1/ },
  { label: "base URL with /v1 not last", setting: "baseUrl", value: "https://api.example.com/v1/agents", rule: /must end with the version segment \/v1/ },
  { label: "base URL over ftp", setting: "baseUrl", value: "ftp://api.example.com/v1", rule: /must use http or https/ },
  { label: "base URL that is not a URL", setting: "baseUrl", value: "api.example.com/v1", rule: /is not a URL/ },
  { label: "plain http to a remote host", setting: "baseUrl", value: "http://api.example.com/v1", rule: /unencrypted to api\.example\.com; use https, or.*allowInsecureHttp/i },
  { label: "plain http to a private address", setting: "baseUrl", value: "http://10.0.0.5:8080/v1", rule: /unencrypted to 10\.0\.0\.5/ },
];
