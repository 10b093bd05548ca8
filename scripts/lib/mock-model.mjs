// The Agent's mocks model for the SDKs' testing modules (sdk/python's
// pulumi_agent_hosting/testing.py, sdk/go's agenthostingtest, sdk/java's
// testing package): each field's rules as the field table states them, the
// same data the provider's check applies (src/client/field-rules.ts), and how
// each sent field maps into the manifest, read from the built package's
// registry (dist/registry.js, src/registry.ts). The reasons of the check
// around the rules (a required field, an unknown one, a secret set's
// references) and the manifest mappings are taken from the provider's own
// functions by calling them on a value of the kind they are about, so nothing
// here restates a rule.
import { createRequire } from "node:module";
import { join } from "node:path";
import { repoRoot } from "./pulumi-env.mjs";

const load = createRequire(import.meta.url);

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** How the field's value is written into the manifest, read from its mapping: the same value, a list of it, or its members renamed. */
function manifestOf(field) {
  const { manifest } = field;
  if (!manifest) return undefined;
  const probe = "probe-value";
  const leftOut = manifest.toManifest(undefined) ?? null;
  if (same(manifest.toManifest(probe), [probe]) && same(leftOut, [])) return { path: manifest.path, kind: "list", leftOut };
  if (field.properties) {
    const sample = Object.fromEntries(field.properties.map((p, i) => [p.name, i + 1]));
    const members = Object.fromEntries(field.properties.map((p) => [p.name, p.answerName ?? p.name]));
    const renamed = Object.fromEntries(field.properties.map((p, i) => [members[p.name], i + 1]));
    if (same(manifest.toManifest(sample), renamed)) return { path: manifest.path, kind: "members", members, leftOut };
  }
  if (manifest.toManifest(probe) === probe && manifest.toManifest(true) === true) return { path: manifest.path, kind: "same", leftOut };
  throw new Error(`mock model: ${field.name}'s manifest mapping is of a kind the SDKs' mocks do not know`);
}

function fieldModel(field, requiredReason) {
  const model = { name: field.name, type: field.type, required: field.required, sentTo: field.sentTo, undeclared: field.undeclared, rules: field.rules };
  if (field.default !== undefined) model.default = field.default;
  if (field.required) model.requiredReason = requiredReason(field.name);
  const manifest = manifestOf(field);
  if (manifest) model.manifest = manifest;
  if (field.answer) model.reportedAtTop = true;
  return model;
}

/**
 * How the provider marks an Agent's outputs secret, read from the TypeScript
 * mocks' creates (the provider's own): the key listing the inputs the program
 * declared secret; the outputs made secret when any sent input is secret
 * (beyond the fields the service reports at the top of its answer, each
 * secret when its own input is), probed with a secret `enableNoise`; and,
 * for each other sent input, the outputs beyond those made secret with it
 * alone (the image's digest with the image).
 */
async function secretMarks(agentHostingMocks, agent, valid, sentinels) {
  const secret = (value) => ({ [sentinels.SIGNATURE_KEY]: sentinels.SECRET_SIGNATURE, value });
  const isSecret = (value) => typeof value === "object" && value !== null && value[sentinels.SIGNATURE_KEY] === sentinels.SECRET_SIGNATURE;
  const secretOutputs = async (inputs) => {
    const { state } = await agentHostingMocks().newResource({ type: agent.nativeType, name: "probe", inputs: { ...valid, ...inputs } });
    return { state, keys: Object.keys(state).filter((key) => isSecret(state[key]) && !agent.fields.some((f) => f.name === key)) };
  };
  const probe = await secretOutputs({ enableNoise: secret(true) });
  const inputsKey = Object.keys(probe.state).find((key) => key.startsWith("__") && Array.isArray(probe.state[key]) && probe.state[key].includes("enableNoise"));
  if (inputsKey === undefined) throw new Error("mock model: the mocks' outputs list no secret inputs");
  const withInput = {};
  for (const name of Object.keys(valid)) {
    const { keys } = await secretOutputs({ [name]: secret(valid[name]) });
    const own = keys.filter((key) => !probe.keys.includes(key));
    if (own.length > 0) withInput[name] = own;
  }
  return { inputsKey, whenSentSecret: probe.keys, withInput };
}

/** The model, from the built package (run `npm run build` first). */
export async function mockModel() {
  const dist = join(repoRoot, "dist");
  const { REGISTRY } = load(join(dist, "registry.js"));
  const testing = load(join(dist, "testing/index.js"));
  const choices = load(join(dist, "testing/service-choices.js"));
  const sentinels = load(join(dist, "core/engine-sentinels.js"));
  const agent = REGISTRY.resources.find((r) => r.name === "Agent");
  const check = async (news, sets) =>
    (await agent.verbs.check({ urn: "", olds: {}, news, secretInputs: [], ...(sets && { secretSets: async (name) => (sets[name] ? { name, fieldNames: sets[name] } : undefined) }) })).failures;
  const requiredFailures = await check({});
  const requiredReason = (name) => requiredFailures.find((f) => f.property === name)?.reason;
  const valid = Object.fromEntries(agent.fields.filter((f) => f.required).map((f) => [f.name, f.name === "image" ? "registry.example.com/probe:1" : "probe-name"]));
  const unknown = (await check({ ...valid, "unknown-field": 1 })).find((f) => f.property === "unknown-field");
  const reasonFor = async (news, sets, property) => {
    const found = (await check({ ...valid, ...news }, sets)).find((f) => f.property === property);
    if (!found) throw new Error(`mock model: the check does not refuse ${JSON.stringify(news)} on ${property}`);
    return found.reason;
  };
  const sets = { "probe-set": ["HAS_ONE", "HAS_TWO"] };
  const secrets = await secretMarks(testing.agentHostingMocks, agent, valid, sentinels);
  const template = (text) => text.replaceAll("probe-set", "{set}");
  return {
    resource: { name: agent.name, token: agent.nativeType },
    fields: agent.fields.map((f) => fieldModel(f, requiredReason)),
    unknownFieldReason: unknown.reason,
    references: {
      secretSetFields: ["imagePullSecretSet", "secretSet"].filter((name) => agent.fields.some((f) => f.name === name)),
      missingSet: template(await reasonFor({ secretSet: "probe-set" }, {}, "secretSet")),
      lacksOne: template(await reasonFor({ secretSet: "probe-set", requiredSecrets: ["MISSING_ONE"] }, sets, "secretSet"))
        .replace("MISSING_ONE", "{missing}")
        .replace("HAS_ONE, HAS_TWO", "{has}"),
      lacksMany: template(await reasonFor({ secretSet: "probe-set", requiredSecrets: ["MISSING_ONE", "MISSING_TWO"] }, sets, "secretSet"))
        .replace("MISSING_ONE, MISSING_TWO", "{missing}")
        .replace("HAS_ONE, HAS_TWO", "{has}"),
      noFields: (await reasonFor({ secretSet: "probe-set", requiredSecrets: ["MISSING_ONE"] }, { "probe-set": [] }, "secretSet")).split("it has ").pop(),
    },
    secrets,
    // The image pinning under the mocks (src/testing/mock-image-digests.ts): the input that says whether an agent pins, the output of the digest.
    pinning: { image: "image", input: "pinImageDigest", output: "imageDigest" },
    service: { manifestHead: choices.MANIFEST_HEAD, specExtras: choices.SPEC_EXTRAS, chosenWhenLeftOut: choices.CHOSEN_WHEN_LEFT_OUT, time: testing.MOCK_TIME },
    functions: Object.fromEntries(REGISTRY.functions.map((f) => [f.name, f.token])),
    // How the engine marks a secret or an output value among serialized properties, which a provider receives plain.
    engine: { signatureKey: sentinels.SIGNATURE_KEY, secret: sentinels.SECRET_SIGNATURE, output: sentinels.OUTPUT_SIGNATURE },
  };
}
