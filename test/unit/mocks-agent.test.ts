/**
 * agentHostingMocks (src/testing) without an engine: an Agent's outputs are
 * a ready agent's with its manifest mapped from the inputs and ids derived
 * from them; every bad input of test/support/bad-inputs.ts is refused with
 * the provider check's own failure; requiredSecrets is held to the mocked
 * secret sets; other types go to the test's own mocks.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { REGISTRY } from "../../src/registry";
import { agentHostingMocks, MockRefusalError, MOCK_TIME } from "../../src/testing";
import { derivedDigest } from "../../src/testing/mock-image-digests";
import { BAD_INPUTS } from "../support/bad-inputs";
import { IMAGE } from "../support/fixtures";

const AGENT = REGISTRY.resources.find((r) => r.name === "Agent")!;
const NATIVE_AGENT_TYPE = AGENT.nativeType;
const DYNAMIC_AGENT_TYPE = AGENT.dynamicType!;

const create = (inputs: Record<string, unknown>, options = {}, type = NATIVE_AGENT_TYPE) =>
  agentHostingMocks(options).newResource({ type, name: "bot", inputs, custom: true });

async function refusal(pending: unknown): Promise<MockRefusalError> {
  const error = await Promise.resolve(pending).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MockRefusalError);
  return error as MockRefusalError;
}

describe("an Agent's outputs under the mocks", () => {
  it("are a ready agent's: the inputs with defaults, the manifest mapped from them, no sessions", async () => {
    const { id, state } = await create({ serviceName: "voice-bot", image: IMAGE, secretSet: "bot-secrets", autoScaling: { minAgents: 2, maxAgents: 5 } });
    expect(id).toBe("voice-bot");
    expect(state).toMatchObject({
      serviceName: "voice-bot",
      name: "voice-bot",
      image: IMAGE,
      nodeType: "arm",
      enableNoise: false,
      waitForReady: true,
      readyTimeoutSeconds: 600,
      secretSet: "bot-secrets",
      autoScaling: { minReplicas: 2, maxReplicas: 5 },
      ready: true,
      activeDeploymentReady: true,
      available: true,
      activeSessionCount: 0,
      createdAt: MOCK_TIME,
      imageDigest: derivedDigest(IMAGE),
    });
    expect(state["manifest"]).toMatchObject({
      kind: "Agent",
      metadata: { name: "voice-bot" },
      spec: {
        // The service runs the image pinned to the digest its tag names (derived from the image under the mocks).
        image: `${IMAGE.slice(0, IMAGE.lastIndexOf(":"))}@${derivedDigest(IMAGE)}`,
        platformNodeType: "arm",
        envFromSecretNames: ["bot-secrets"],
        imagePullSecretNames: [],
        autoScaling: { minReplicas: 2, maxReplicas: 5 },
        noiseModels: { enabled: false },
      },
    });
    expect(state["activeDeploymentId"]).toMatch(/^dep-[0-9a-f]{12}$/);
    expect(state["desiredDeploymentId"]).toBe(state["activeDeploymentId"]);
    expect((state["deployment"] as Record<string, unknown>)["id"]).toBe(state["activeDeploymentId"]);
  });

  it("derive the deployment id from what is sent: the same inputs give the same id, another image another; without the wait, not ready", async () => {
    const first = await create({ serviceName: "voice-bot", image: IMAGE });
    const again = await create({ serviceName: "voice-bot", image: IMAGE, waitForReady: false });
    const other = await create({ serviceName: "voice-bot", image: "registry.example.com/voice-bot:1.4.3" });
    expect(again.state["activeDeploymentId"]).toBe(first.state["activeDeploymentId"]);
    expect(again.state["waitForReady"]).toBe(false);
    // Without the wait, the outputs are the create's own answer: the agent not ready yet.
    expect(again.state).toMatchObject({ ready: false, activeDeploymentReady: false, available: false });
    expect(other.state["activeDeploymentId"]).not.toBe(first.state["activeDeploymentId"]);
  });

  it("report the service's scaling when the program leaves autoScaling out", async () => {
    const { state } = await create({ serviceName: "voice-bot", image: IMAGE });
    expect(state["autoScaling"]).toEqual({ minReplicas: 1, maxReplicas: 1 });
  });

  it("keep the dynamic type's serialized provider as the dynamic host does", async () => {
    const { state } = await create({ serviceName: "voice-bot", image: IMAGE, __provider: "exports.handler = x" }, {}, DYNAMIC_AGENT_TYPE);
    expect(state["__provider"]).toBe("exports.handler = x");
    expect(state["ready"]).toBe(true);
  });
});

describe("an Agent's image digest under the mocks", () => {
  const GIVEN = `sha256:${"c".repeat(64)}`;

  it("is derived from the image as written, the same in every run: sha256 and the SHA-256 of its text", async () => {
    expect(derivedDigest("registry.example.com/voice-bot:1.4.2")).toBe("sha256:" + createHash("sha256").update("registry.example.com/voice-bot:1.4.2").digest("hex"));
    const { state } = await create({ serviceName: "voice-bot", image: "registry.example.com:5000/voice-bot:1.4.2" });
    expect(state["imageDigest"]).toBe(derivedDigest("registry.example.com:5000/voice-bot:1.4.2"));
    expect(state["image"]).toBe("registry.example.com:5000/voice-bot:1.4.2");
  });

  it("is the one given for the image, which the service runs", async () => {
    const { state } = await create({ serviceName: "voice-bot", image: IMAGE }, { imageDigests: { [IMAGE]: GIVEN } });
    expect(state["imageDigest"]).toBe(GIVEN);
    expect((state["manifest"] as { spec: { image: string } }).spec.image).toBe(`${IMAGE.slice(0, IMAGE.lastIndexOf(":"))}@${GIVEN}`);
  });

  it("is absent when the agent does not pin, the stack does not pin by default, or the image is in digest form", async () => {
    const digestForm = `registry.example.com/voice-bot@${GIVEN}`;
    for (const [inputs, options] of [
      [{ pinImageDigest: false }, {}],
      [{}, { pinImageDigests: false }],
      [{ image: digestForm }, {}],
    ] as const) {
      const { state } = await create({ serviceName: "voice-bot", image: IMAGE, ...inputs }, options);
      expect(state["imageDigest"]).toBeUndefined();
      expect((state["manifest"] as { spec: { image: string } }).spec.image).toBe(inputs.image ?? IMAGE);
    }
    const { state } = await create({ serviceName: "voice-bot", image: IMAGE, pinImageDigest: true }, { pinImageDigests: false });
    expect(state["imageDigest"]).toBe(derivedDigest(IMAGE));
  });

  it("answers getImageDigest, in the engine's invoke", async () => {
    const mocks = agentHostingMocks({ imageDigests: { [IMAGE]: GIVEN } });
    const token = REGISTRY.functions.find((f) => f.name === "getImageDigest")!.token;
    expect(await mocks.call({ token, inputs: { image: IMAGE } })).toEqual({ image: IMAGE, digest: GIVEN, pinnedImage: `${IMAGE.slice(0, IMAGE.lastIndexOf(":"))}@${GIVEN}` });
    expect(await mocks.call({ token, inputs: { image: "other.example.com/bot:2" } })).toMatchObject({ digest: derivedDigest("other.example.com/bot:2") });
  });
});

describe("the preview's rules under the mocks", () => {
  it.each(BAD_INPUTS.map((c) => [c.label, c] as const))("%s is refused with the check's own failure", async (_label, c) => {
    const error = await refusal(create(c.args));
    const expected = (await AGENT.verbs.check({ urn: "", olds: {}, news: c.args, secretInputs: [] })).failures;
    expect(error.failures).toEqual(expected);
    expect(error.message).toContain(`${c.field}: `);
    expect(error.message).toMatch(c.rule);
  });

  it("refuses a requiredSecrets field the mocked set lacks, naming the set and its fields", async () => {
    const args = { serviceName: "voice-bot", image: IMAGE, secretSet: "bot-secrets", requiredSecrets: ["OPENAI_KEY", "SIP_PASSWORD"] };
    const error = await refusal(create(args, { secretSets: { "bot-secrets": ["OPENAI_KEY"] } }));
    expect(error.message).toContain('secretSet: secret set "bot-secrets" lacks the field SIP_PASSWORD that requiredSecrets names; it has OPENAI_KEY');
    const accepted = await create(args, { secretSets: { "bot-secrets": ["OPENAI_KEY", "SIP_PASSWORD"] } });
    expect(accepted.state["requiredSecrets"]).toEqual(["OPENAI_KEY", "SIP_PASSWORD"]);
  });

  it("refuses a set the mocked service does not hold, and requiredSecrets without secretSet", async () => {
    const missing = await refusal(create({ serviceName: "voice-bot", image: IMAGE, imagePullSecretSet: "pull-creds" }, { secretSets: {} }));
    expect(missing.message).toContain('imagePullSecretSet: secret set "pull-creds" does not exist at the service');
    const unnamed = await refusal(create({ serviceName: "voice-bot", image: IMAGE, requiredSecrets: ["A"] }));
    expect(unnamed.message).toContain("requiredSecrets: needs secretSet");
  });
});

describe("everything else under the mocks", () => {
  it("sends other types and calls to the test's own mocks, and echoes other types without them", async () => {
    const own = { newResource: () => ({ id: "own-id", state: { own: true } }), call: () => ({ answered: "own" }) };
    const mocks = agentHostingMocks({ mocks: own });
    expect(await mocks.newResource({ type: "aws:s3/bucket:Bucket", name: "b", inputs: { acl: "private" } })).toEqual({ id: "own-id", state: { own: true } });
    expect(await mocks.call({ token: "aws:index/getRegion:getRegion", inputs: {} })).toEqual({ answered: "own" });
    const bare = agentHostingMocks();
    expect(await bare.newResource({ type: "aws:s3/bucket:Bucket", name: "b", inputs: { acl: "private" } })).toEqual({ id: "b-id", state: { acl: "private" } });
    await expect(Promise.resolve().then(() => bare.call({ token: "aws:index/getRegion:getRegion", inputs: {} }))).rejects.toThrow(/no mock for the call aws:index\/getRegion:getRegion/);
  });

  it("answers Agent.get of an agent the program created, and fails for one it did not", async () => {
    const mocks = agentHostingMocks();
    const created = await mocks.newResource({ type: NATIVE_AGENT_TYPE, name: "bot", inputs: { serviceName: "voice-bot", image: IMAGE } });
    const read = await mocks.newResource({ type: NATIVE_AGENT_TYPE, name: "adopted", inputs: {}, id: "voice-bot" });
    expect(read.state["activeDeploymentId"]).toBe(created.state["activeDeploymentId"]);
    await expect(Promise.resolve().then(() => mocks.newResource({ type: NATIVE_AGENT_TYPE, name: "gone", inputs: {}, id: "other-bot" }))).rejects.toThrow(/404/);
  });
});
