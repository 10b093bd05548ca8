/**
 * The cases the SDKs' generated mocks are held to against the provider's own
 * check (test/integration/mocks-python-rules.test.ts, mocks-go-rules.test.ts):
 * the bad inputs whose rule the field table does not state as data, secret-set
 * reference cases against mocked sets, and valid inputs whose outputs are
 * compared.
 */
import { REGISTRY } from "../../../src/registry";

const AGENT = REGISTRY.resources.find((r) => r.name === "Agent")!;

/** The labels of test/support/bad-inputs.ts whose rule is a pattern, a length, a range or a relation between members: the preview's only. */
export const PREVIEW_ONLY = new Set([
  "uppercase serviceName",
  "serviceName starting with a hyphen",
  "serviceName ending with a hyphen",
  "empty serviceName",
  "serviceName of 55 characters",
  "serviceName with ../",
  "serviceName with %2F",
  "serviceName with a space",
  "unicode serviceName",
  "empty image",
  "image without a tag",
  "image with whitespace",
  "image with a registry port but no tag",
  "image with a malformed digest",
  "image tag starting with a hyphen",
  "very long image without a tag",
  "secretSet of 2 characters",
  "secretSet of 64 characters",
  "secretSet with an underscore",
  "secretSet with a path",
  "imagePullSecretSet with a space",
  "unicode imagePullSecretSet",
  "negative minAgents",
  "maxAgents of 0",
  "minAgents above maxAgents",
  "readyTimeoutSeconds of 0",
  "readyTimeoutSeconds above an hour",
  "healthCheck with an empty query",
  "healthCheck watching 0 seconds",
  "healthCheck watching above an hour",
]);

export const SETS: Record<string, string[]> = { "bot-secrets": ["OPENAI_KEY", "SIP_PASSWORD"], "empty-set": [] };
const base = { serviceName: "valid-bot", image: "registry.example.com/bot:1.0" };

/** Cases of the secret-set references and the relations, checked against SETS. */
export const REFERENCE_CASES = [
  { label: "requiredSecrets without secretSet", args: { ...base, requiredSecrets: ["OPENAI_KEY"] } },
  { label: "a secretSet the service does not hold", args: { ...base, secretSet: "other-set" } },
  { label: "an imagePullSecretSet the service does not hold", args: { ...base, imagePullSecretSet: "pull-creds" } },
  { label: "one required field the set lacks", args: { ...base, secretSet: "bot-secrets", requiredSecrets: ["OPENAI_KEY", "TWILIO_TOKEN"] } },
  { label: "two required fields the set lacks", args: { ...base, secretSet: "bot-secrets", requiredSecrets: ["A_KEY", "B_KEY"] } },
  { label: "a required field of a set with no fields", args: { ...base, secretSet: "empty-set", requiredSecrets: ["A_KEY"] } },
  { label: "required fields the set holds", args: { ...base, secretSet: "bot-secrets", requiredSecrets: ["SIP_PASSWORD"] } },
];

export const VALID_INPUTS = [
  base,
  { ...base, secretSet: "bot-secrets", requiredSecrets: ["OPENAI_KEY"], imagePullSecretSet: "bot-secrets", autoScaling: { minAgents: 2, maxAgents: 5 }, enableNoise: true },
  { ...base, waitForReady: false, onFailure: "rollback", healthCheck: { failOnLogQuery: "panic", watchSeconds: 30 }, drainSeconds: 60, redeployTrigger: "r2" },
];

export const typescriptFailures = async (args: Record<string, unknown>, sets?: Record<string, string[]>): Promise<[string, string][]> => {
  const lookup = sets && (async (name: string) => (name in sets ? { name, fieldNames: sets[name]! } : undefined));
  const { failures } = await AGENT.verbs.check({ urn: "", olds: {}, news: args, secretInputs: [], ...(lookup && { secretSets: lookup }) });
  return failures.map((f) => [f.property, f.reason]);
};

