/**
 * The cases the SDKs' generated mocks are held to against the provider's own
 * check (test/integration/mocks-{python,go,java}-rules.test.ts): bad inputs
 * beyond test/support/bad-inputs.ts, secret-set reference cases against
 * mocked sets, and valid inputs whose outputs are compared.
 */
import { REGISTRY } from "../../../src/registry";
import { SECRET_SIGNATURE, SIGNATURE_KEY } from "../../../src/core/engine-sentinels";
import { agentHostingMocks } from "../../../src/testing";
import { plainInputs } from "../../../src/testing/plain-inputs";
import { BAD_INPUTS } from "../../support/bad-inputs";

const AGENT = REGISTRY.resources.find((r) => r.name === "Agent")!;

/**
 * Inputs at the edges of the rules, beyond test/support/bad-inputs.ts, bad
 * or not, where a language could read the rules' data differently from
 * JavaScript: a final newline against `$`, whitespace outside ASCII, lengths
 * of characters outside the BMP, lists, and the relations between fields.
 */
export const EDGE_INPUTS: { label: string; args: Record<string, unknown> }[] = [
  { label: "serviceName with a final newline", args: { serviceName: "valid-bot\n", image: "registry.example.com/bot:1.0" } },
  { label: "image with a no-break space", args: { serviceName: "valid-bot", image: "bot:1\u00a0" } },
  { label: "image with a line separator", args: { serviceName: "valid-bot", image: "bot\u2028:1" } },
  { label: "image with a digest and a tag", args: { serviceName: "valid-bot", image: `bot:1@sha256:${"a".repeat(64)}` } },
  { label: "image with two digests", args: { serviceName: "valid-bot", image: `bot@sha256:${"a".repeat(64)}@sha256:${"b".repeat(64)}` } },
  { label: "image tag of 129 characters", args: { serviceName: "valid-bot", image: `bot:${"t".repeat(129)}` } },
  { label: "serviceName of 27 emoji (54 UTF-16 units)", args: { serviceName: "😀".repeat(27), image: "bot:1" } },
  { label: "serviceName of 28 emoji (56 UTF-16 units)", args: { serviceName: "😀".repeat(28), image: "bot:1" } },
  { label: "redeployTrigger of 257 characters", args: { serviceName: "valid-bot", image: "bot:1", redeployTrigger: "r".repeat(257) } },
  { label: "drainSeconds above 14400", args: { serviceName: "valid-bot", image: "bot:1", drainSeconds: 14401 } },
  { label: "fractional drainSeconds", args: { serviceName: "valid-bot", image: "bot:1", drainSeconds: 1.5 } },
  { label: "readyTimeoutSeconds as a string", args: { serviceName: "valid-bot", image: "bot:1", readyTimeoutSeconds: "60" } },
  { label: "requiredSecrets not a list", args: { serviceName: "valid-bot", image: "bot:1", secretSet: "bot-secrets", requiredSecrets: "OPENAI_KEY" } },
  { label: "requiredSecrets with a blank and a duplicate", args: { serviceName: "valid-bot", image: "bot:1", secretSet: "bot-secrets", requiredSecrets: ["A", " ", "A", 7] } },
  { label: "requiredSecrets without secretSet, a wrong member too", args: { serviceName: "valid-bot", image: "bot:1", requiredSecrets: ["A"], autoScaling: { minAgents: 1 } } },
  { label: "empty requiredSecrets without secretSet", args: { serviceName: "valid-bot", image: "bot:1", requiredSecrets: [] } },
  { label: "healthCheck without a query, with an unknown key", args: { serviceName: "valid-bot", image: "bot:1", healthCheck: { watchSeconds: 5, every: 1 } } },
  { label: "healthCheck not an object", args: { serviceName: "valid-bot", image: "bot:1", healthCheck: "panic" } },
  { label: "autoScaling minAgents above a bad maxAgents", args: { serviceName: "valid-bot", image: "bot:1", autoScaling: { minAgents: 5, maxAgents: 0 } } },
  { label: "nodeType not a string", args: { serviceName: "valid-bot", image: "bot:1", nodeType: 1 } },
  { label: "secretSet of 63 characters with dots", args: { serviceName: "valid-bot", image: "bot:1", secretSet: `a.${"b".repeat(59)}.c` } },
];

export const SETS: Record<string, string[]> = { "bot-secrets": ["OPENAI_KEY", "SIP_PASSWORD"], "empty-set": [] };
const base = { serviceName: "valid-bot", image: "registry.example.com/bot:1.0" };

/** A value as the engine serializes a secret, which the mocks of every language receive. */
export const secret = (value: unknown) => ({ [SIGNATURE_KEY]: SECRET_SIGNATURE, value });

/** Inputs with secrets: valid ones, whose outputs are compared, and bad ones, whose refusal must not print the value. */
export const SECRET_INPUTS = [
  { ...base, image: secret("registry.example.com/bot:2.0"), autoScaling: secret({ minAgents: 1, maxAgents: 3 }) },
  { ...base, secretSet: "bot-secrets", requiredSecrets: secret(["OPENAI_KEY"]), healthCheck: { failOnLogQuery: secret("panic"), watchSeconds: 5 } },
];
export const BAD_SECRET_INPUTS = [
  { label: "a secret image without a tag", args: { ...base, image: secret("registry.example.com/bot") } },
  { label: "a secret healthCheck query that is blank", args: { ...base, healthCheck: { failOnLogQuery: secret(" "), watchSeconds: 5 } } },
  { label: "a secret secretSet the service does not hold", args: { ...base, secretSet: secret("other-set") }, sets: SETS },
];

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

/** Every case a language's mocks are checked on: the bad inputs and the edges without sets, the references against SETS. */
export const CHECK_CASES: { label: string; args: Record<string, unknown>; sets: Record<string, string[]> | null }[] = [
  ...BAD_INPUTS.map((c) => ({ label: c.label, args: c.args, sets: null })),
  ...EDGE_INPUTS.map((c) => ({ ...c, sets: null })),
  ...REFERENCE_CASES.map((c) => ({ ...c, sets: SETS })),
  ...BAD_SECRET_INPUTS.map((c) => ({ ...c, sets: c.sets ?? null })),
];

export const VALID_INPUTS = [
  base,
  { ...base, secretSet: "bot-secrets", requiredSecrets: ["OPENAI_KEY"], imagePullSecretSet: "bot-secrets", autoScaling: { minAgents: 2, maxAgents: 5 }, enableNoise: true },
  { ...base, waitForReady: false, onFailure: "rollback", healthCheck: { failOnLogQuery: "panic", watchSeconds: 30 }, drainSeconds: 60, redeployTrigger: "r2" },
  { ...base, image: "registry.example.com:5000/team/bot:1.0-rc.1" },
  { ...base, image: `registry.example.com/bot@sha256:${"d".repeat(64)}` },
  { ...base, pinImageDigest: false },
  { ...base, pinImageDigest: true, image: "bot:latest" },
  ...SECRET_INPUTS,
];

/** getImageDigest's cases: images with a digest given, without one, in digest form, with a registry port. */
export const DIGEST_CASES = {
  given: { "registry.example.com/bot:1.0": `sha256:${"f".repeat(64)}` },
  images: ["registry.example.com/bot:1.0", "registry.example.com:5000/team/bot:2", `registry.example.com/bot@sha256:${"0".repeat(64)}`, "bot"],
};

/** The TypeScript mocks' answers to getImageDigest for DIGEST_CASES. */
export async function typescriptDigests(): Promise<unknown[]> {
  const mocks = agentHostingMocks({ imageDigests: DIGEST_CASES.given });
  const token = REGISTRY.functions.find((f) => f.name === "getImageDigest")!.token;
  return Promise.all(DIGEST_CASES.images.map((image) => mocks.call({ token, inputs: { image } })));
}

/** The provider's check of `args` as the engine hands them to it: plain values, the secret inputs listed. */
export const typescriptFailures = async (args: Record<string, unknown>, sets?: Record<string, string[]>): Promise<[string, string][]> => {
  const lookup = sets && (async (name: string) => (name in sets ? { name, fieldNames: sets[name]! } : undefined));
  const { plain, secret: secretNames } = plainInputs(args);
  const secretInputs = AGENT.fields.map((f) => f.name).filter((name) => secretNames.includes(name));
  const { failures } = await AGENT.verbs.check({ urn: "", olds: {}, news: plain, secretInputs, ...(lookup && { secretSets: lookup }) });
  return failures.map((f) => [f.property, f.reason]);
};

