/**
 * The Agent's image pinning through its verbs, as the hosts call them: check
 * with a stand-in digest lookup (the registry's own behaviour is
 * test/unit/image-registry-*.test.ts and test/integration), diff over
 * decoded outputs and the marks a host reads, and what create sends and the
 * outputs and a refresh record of the service's `name@sha256:…`.
 */
import { describe, expect, it } from "vitest";
import { asSecret, UNKNOWN_VALUE } from "../../src/core/engine-sentinels";
import type { ImageDigestLookup } from "../../src/core/image-digest-lookup";
import { marksOf, withRecordedImageDigest, withoutReserved } from "../../src/core/state-marks";
import { ImageRegistryError } from "../../src/image-registry";
import { checkVerb, diffAgent } from "../../src/resources/agent/preview-verbs";
import { lastReadyOf, rolledBackInputs } from "../../src/resources/agent/rollout";
import { asInputs, asState, createBody, inputsFromAgent, outputProps, toOutputs, updateBody } from "../../src/resources/agent/state";
import type { ServiceAgent } from "../../src/resources/agent/state";

const D1 = `sha256:${"1".repeat(64)}`;
const D2 = `sha256:${"2".repeat(64)}`;
const IMAGE = "registry.example.com/voice/bot:main";

/** A lookup answering `digests` by image, counting what it was asked. */
function lookup(digests: Record<string, string | Error>, pinByDefault = true): ImageDigestLookup & { asked: string[] } {
  const asked: string[] = [];
  return {
    pinByDefault,
    asked,
    async resolve(image) {
      asked.push(image);
      const answer = digests[image];
      if (answer === undefined) throw new Error(`unexpected image ${image}`);
      if (answer instanceof Error) throw answer;
      return { image, digest: answer, pinnedImage: `${image.split(":main")[0]}@${answer}` };
    },
  };
}

const check = (news: Record<string, unknown>, imageDigests?: ImageDigestLookup, secretInputs: string[] = []) =>
  checkVerb({ urn: "urn:pulumi:dev::p::agent-hosting:index:Agent::bot", olds: {}, news: { serviceName: "voice-bot", ...news }, secretInputs, ...(imageDigests ? { imageDigests } : {}) });

describe("check pins a tag-form image", () => {
  it("resolves it and carries the digest in the checked inputs", async () => {
    const digests = lookup({ [IMAGE]: D1 });
    const checked = await check({ image: IMAGE }, digests);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ image: IMAGE, imageDigest: D1 });
    expect(digests.asked).toEqual([IMAGE]);
  });

  it.each([
    ["pinImageDigest false", { image: IMAGE, pinImageDigest: false }, true],
    ["a digest-form image", { image: `registry.example.com/voice/bot@${D1}` }, true],
    ["the stack's pinImageDigests false", { image: IMAGE }, false],
  ])("asks nothing and records no digest for %s", async (_case, news, byDefault) => {
    const digests = lookup({}, byDefault);
    const checked = await check(news, digests);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs["imageDigest"]).toBeUndefined();
    expect(digests.asked).toEqual([]);
  });

  it("an image unknown in a preview asks nothing; its digest is unknown too, unless pinning is off", async () => {
    const digests = lookup({});
    expect((await check({ image: UNKNOWN_VALUE }, digests)).inputs["imageDigest"]).toBe(UNKNOWN_VALUE);
    expect((await check({ image: UNKNOWN_VALUE, pinImageDigest: false }, digests)).inputs["imageDigest"]).toBeUndefined();
    expect((await check({ image: IMAGE, pinImageDigest: UNKNOWN_VALUE }, digests)).inputs["imageDigest"]).toBe(UNKNOWN_VALUE);
    expect(digests.asked).toEqual([]);
  });

  it("pins when the agent says so against the stack's default, and a digest the program passed never survives", async () => {
    const digests = lookup({ [IMAGE]: D2 }, false);
    expect((await check({ image: IMAGE, pinImageDigest: true, imageDigest: D1 }, digests)).inputs["imageDigest"]).toBe(D2);
    expect((await check({ image: IMAGE, imageDigest: D1 }, digests)).inputs["imageDigest"]).toBeUndefined();
  });

  it("fails on image when the registry cannot answer, naming the agent and the registry's message; a secret image is not named", async () => {
    const refused = new ImageRegistryError("registry registry.example.com, repository voice/bot, tag main: the registry asks for credentials (HTTP 401); fix", {
      kind: "credentials-missing",
      reference: { registry: "registry.example.com", repository: "voice/bot", tag: "main" },
      status: 401,
    });
    const digests = lookup({ [IMAGE]: refused });
    expect((await check({ image: IMAGE }, digests)).failures).toEqual([
      { property: "image", reason: `agent "voice-bot": nothing was sent: ${refused.message}` },
    ]);
    const hidden = await check({ image: IMAGE }, digests, ["image"]);
    expect(hidden.failures).toHaveLength(1);
    expect(hidden.failures[0]?.reason).toMatch(/^image \(a secret\): agent "voice-bot": nothing was sent: the digest of the image \(a secret\) could not be resolved: credentials-missing \(HTTP 401\); or set pinImageDigest: false/);
    expect(JSON.stringify(hidden.failures)).not.toContain("voice/bot");
  });

  it("the checked inputs carry the digest the previous inputs recorded, as a host hands them to diff", () => {
    const carried = withRecordedImageDigest({ image: IMAGE, imageDigest: D2 }, { image: IMAGE, imageDigest: D1 });
    expect(marksOf(carried).recordedImageDigest).toBe(D1);
    expect(withoutReserved(carried)).toEqual({ image: IMAGE, imageDigest: D2 });
  });
});

/** Outputs of a pinned agent as a create leaves them. */
const pinnedOutputs = { serviceName: "voice-bot", image: IMAGE, nodeType: "arm", enableNoise: false, imageDigest: D1, activeDeploymentId: "dep-1" };
const checkedNews = (digest: string | undefined) => ({ serviceName: "voice-bot", image: IMAGE, nodeType: "arm", enableNoise: false, ...(digest ? { imageDigest: digest } : {}) });
const diff = (olds: Record<string, unknown>, news: Record<string, unknown>, recordedImageDigest?: string) =>
  diffAgent(asState(olds), news, { olds: { secretInputs: [] }, news: { secretInputs: [], ...(recordedImageDigest ? { recordedImageDigest } : {}) } });

describe("diff of a pinned image", () => {
  it("a tag that names another digest is an update of imageDigest that makes a new deployment", () => {
    expect(diff(pinnedOutputs, checkedNews(D2))).toMatchObject({ changes: true, changed: ["imageDigest"], replaces: [], localOnly: false, stables: ["name", "serviceName", "createdAt"] });
  });

  it("the same digest is no change", () => {
    expect(diff(pinnedOutputs, checkedNews(D1))).toMatchObject({ changes: false, changed: [] });
  });

  it("upgrading: no digest recorded (outputs nor inputs) is no change", () => {
    const { imageDigest: _none, ...unpinned } = pinnedOutputs;
    expect(diff(unpinned, checkedNews(D1))).toMatchObject({ changes: false, changed: [] });
  });

  it("upgrading: a scaling change of an agent whose digest is not recorded yet sends its image pinned, a new deployment", () => {
    const { imageDigest: _none, ...unpinned } = pinnedOutputs;
    const scaled = diff({ ...unpinned, autoScaling: { minReplicas: 1, maxReplicas: 1 } }, { ...checkedNews(D1), autoScaling: { minAgents: 1, maxAgents: 2 } });
    expect(scaled).toMatchObject({ changes: true, changed: ["autoScaling"], stables: ["name", "serviceName", "createdAt"] });
    const pinnedScaled = diff({ ...pinnedOutputs, autoScaling: { minReplicas: 1, maxReplicas: 1 } }, { ...checkedNews(D1), autoScaling: { minAgents: 1, maxAgents: 2 } });
    expect(pinnedScaled.stables).toContain("activeDeploymentId");
  });

  it("after a step without changes, the digest the inputs recorded is the one compared", () => {
    const { imageDigest: _none, ...unpinned } = pinnedOutputs;
    expect(diff(unpinned, checkedNews(D1), D1)).toMatchObject({ changes: false });
    expect(diff(unpinned, checkedNews(D2), D1)).toMatchObject({ changes: true, changed: ["imageDigest"] });
  });

  it("an image recorded in digest form (an import) that the tag names now is no change; another digest is", () => {
    const imported = { ...pinnedOutputs, image: `registry.example.com/voice/bot@${D1}`, imageDigest: undefined };
    expect(diff(imported, checkedNews(D1))).toMatchObject({ changes: false });
    expect(diff(imported, checkedNews(D2))).toMatchObject({ changes: true, changed: ["imageDigest"] });
  });

  it("another tag is a change of image, and turning pinning off alone sends nothing new but the declared setting", () => {
    expect(diff(pinnedOutputs, { ...checkedNews(D2), image: "registry.example.com/voice/bot:next" })).toMatchObject({ changed: ["image"] });
    expect(diff(pinnedOutputs, { ...checkedNews(undefined), pinImageDigest: false })).toMatchObject({ changed: ["pinImageDigest"], localOnly: false });
  });
});

describe("what is sent and what is recorded", () => {
  const live = (image: string): ServiceAgent =>
    ({
      name: "voice-bot",
      ready: true,
      activeDeploymentId: "dep-2",
      activeDeploymentReady: true,
      autoScaling: { minReplicas: 1, maxReplicas: 1 },
      deployment: { id: "dep-2", manifest: { spec: { image, nodeType: "arm", enableNoise: false } } },
    }) as unknown as ServiceAgent;

  it("create sends name@sha256; the outputs read the service's answer back as the tag and imageDigest", () => {
    const inputs = asInputs(checkedNews(D2));
    expect(createBody(inputs).image).toBe(`registry.example.com/voice/bot@${D2}`);
    const outputs = outputProps(toOutputs(inputs, live(`registry.example.com/voice/bot@${D2}`)), []);
    expect(outputs).toMatchObject({ image: IMAGE, imageDigest: D2 });
  });

  it("the digest of a secret image is a secret output", () => {
    const outputs = outputProps(toOutputs(asInputs(checkedNews(D2)), live(`registry.example.com/voice/bot@${D2}`)), ["image"]);
    expect(outputs["imageDigest"]).toEqual(asSecret(D2));
  });

  it("an unpinned image is sent and recorded as written", () => {
    const inputs = asInputs(checkedNews(undefined));
    expect(createBody(inputs).image).toBe(IMAGE);
    expect(outputProps(toOutputs(inputs, live(IMAGE)), [])["imageDigest"]).toBeUndefined();
  });

  it("a rollback sends the digest that was ready, not what the tag names since", () => {
    const lastReady = lastReadyOf(asState(pinnedOutputs), false);
    expect(lastReady?.inputs).toMatchObject({ image: IMAGE, imageDigest: D1 });
    const back = rolledBackInputs(asInputs(checkedNews(D2)), lastReady?.inputs ?? asInputs(checkedNews(D1)));
    expect(updateBody(back, undefined).image).toBe(`registry.example.com/voice/bot@${D1}`);
  });

  it("refresh rebuilds the tag and the digest the service runs; an adopted agent keeps the digest form", () => {
    const recorded = asState(pinnedOutputs).inputs;
    expect(inputsFromAgent(live(`registry.example.com/voice/bot@${D2}`), recorded)).toMatchObject({ image: IMAGE, imageDigest: D2 });
    expect(inputsFromAgent(live("registry.example.com/voice/bot:other"), recorded)).toMatchObject({ image: "registry.example.com/voice/bot:other" });
    expect(inputsFromAgent(live("registry.example.com/voice/bot:other"), recorded)).not.toHaveProperty("imageDigest");
    expect(inputsFromAgent(live(`registry.example.com/voice/bot@${D2}`), {})).toMatchObject({ image: `registry.example.com/voice/bot@${D2}` });
  });
});
