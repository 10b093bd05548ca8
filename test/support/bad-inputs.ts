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

/** One bad value of an input: the case's label, the value, the rule the error states, and the member the error names when it is one inside the input. */
type BadValue = readonly [label: string, value: unknown, rule: RegExp, member?: string];

/** Cases that each set `input` of a valid Agent to a bad value; the error names `input`, or `input.member`. */
function badValues(input: string, cases: readonly BadValue[]): BadInputCase[] {
  return cases.map(([label, value, rule, member]) => ({ label, args: { ...base, [input]: value }, field: member ? `${input}.${member}` : input, rule }));
}

export const BAD_INPUTS: BadInputCase[] = [
  ...badValues("serviceName", [
    ["uppercase serviceName", "Voice-Bot", /lowercase/],
    ["serviceName starting with a hyphen", "-bot", /must match/],
    ["serviceName ending with a hyphen", "bot-", /must match/],
    ["empty serviceName", "", /1 to 54/],
    ["serviceName of 55 characters", "a".repeat(55), /1 to 54/],
    ["serviceName with ../", "../etc", /must match/],
    ["serviceName with %2F", "a%2Fb", /must match/],
    ["serviceName with a space", "voice bot", /must match/],
    ["unicode serviceName", "vöice-bot", /must match/],
    ["serviceName not a string", 42, /string/],
  ]),
  ...badValues("image", [
    ["empty image", "", /empty/],
    ["image without a tag", "registry.example.com/bot", /tag/],
    ["image with whitespace", "bot :1", /whitespace/],
    ["image with a registry port but no tag", "registry:5000/bot", /tag/],
    ["image with a malformed digest", "bot@sha256:xyz", /digest/],
    ["image tag starting with a hyphen", "bot:-rc1", /tag must be/],
    ["very long image without a tag", "r".repeat(4000), /tag/],
    ["image not a string", ["bot:1"], /string/],
  ]),
  ...badValues("nodeType", [
    ["nodeType x86", "x86", /arm/],
    ["nodeType ARM in capitals", "ARM", /arm/],
  ]),
  ...badValues("secretSet", [
    ["secretSet of 2 characters", "ab", /3 to 63/],
    ["secretSet of 64 characters", "s".repeat(64), /3 to 63/],
    ["secretSet with an underscore", "my_set", /DNS subdomain/],
    ["secretSet with a path", "sets/../x", /DNS subdomain/],
  ]),
  ...badValues("imagePullSecretSet", [
    ["imagePullSecretSet with a space", "pull set", /DNS subdomain/],
    ["unicode imagePullSecretSet", "püll-set", /DNS subdomain/],
  ]),
  ...badValues("autoScaling", [
    ["negative minAgents", { minAgents: -1, maxAgents: 2 }, /≥ 0/, "minAgents"],
    ["maxAgents of 0", { minAgents: 0, maxAgents: 0 }, /≥ 1/, "maxAgents"],
    ["minAgents above maxAgents", { minAgents: 5, maxAgents: 2 }, /≤ maxAgents/, "minAgents"],
    ["fractional minAgents", { minAgents: 1.5, maxAgents: 2 }, /integer/, "minAgents"],
    ["minAgents as a string", { minAgents: "1", maxAgents: 2 }, /integer/, "minAgents"],
    ["autoScaling with an unknown key", { minAgents: 1, maxAgents: 2, max: 3 }, /unknown key/],
  ]),
  ...badValues("enableNoise", [["enableNoise as a string", "yes", /boolean/]]),
  ...badValues("waitForReady", [["waitForReady as a string", "true", /boolean/]]),
  ...badValues("readyTimeoutSeconds", [
    ["readyTimeoutSeconds of 0", 0, /1 and 3600/],
    ["readyTimeoutSeconds above an hour", 99_999, /1 and 3600/],
  ]),
  ...badValues("onFailure", [["onFailure revert", "revert", /"keep" or "rollback"/]]),
  ...badValues("healthCheck", [
    ["healthCheck with an empty query", { failOnLogQuery: " ", watchSeconds: 30 }, /must not be empty/, "failOnLogQuery"],
    ["healthCheck watching 0 seconds", { failOnLogQuery: "panic", watchSeconds: 0 }, /1 to 3600/, "watchSeconds"],
    ["healthCheck watching above an hour", { failOnLogQuery: "panic", watchSeconds: 3601 }, /1 to 3600/, "watchSeconds"],
  ]),
  ...badValues("region", [["an unknown field", "eu-west", /not a known field/]]),
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
