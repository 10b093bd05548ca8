import { describe, expect, it } from "vitest";
import { marksOf } from "../../src/core/state-marks";
import { diffAgent as diffOf, diffVerb } from "../../src/resources/agent/preview-verbs";
import { asState } from "../../src/resources/agent/state";
import { UNKNOWN_VALUE } from "../../src/core/engine-sentinels";

/** The diff as a host asks for it: the previous outputs decoded, the secret marks the properties list as typed fields. */
const diffAgent = (olds: Record<string, unknown>, news: Record<string, unknown>) => diffOf(asState(olds), news, { olds: marksOf(olds), news: marksOf(news) });

/** The inputs of a program. */
const news = {
  serviceName: "voice-bot",
  image: "bot:1",
  nodeType: "arm",
  secretSet: "voice-secrets",
  enableNoise: true,
  waitForReady: true,
  readyTimeoutSeconds: 600,
  autoScaling: { minAgents: 1, maxAgents: 5 },
};
/** The state recorded for the same inputs: the service's scaling names, and outputs. */
const olds = {
  ...news,
  autoScaling: { minReplicas: 1, maxReplicas: 5 },
  // outputs that must never cause a diff
  ready: true,
  activeSessionCount: 7,
  activeDeploymentId: "dep-1",
  updatedAt: "2026-11-23T00:00:00Z",
};

describe("diff", () => {
  it("reports no change when the inputs match, whatever the outputs say", () => {
    expect(diffAgent(olds, news)).toMatchObject({ changes: false, replaces: [], changed: [] });
  });

  it("replaces on a serviceName change", () => {
    expect(diffAgent(olds, { ...news, serviceName: "voice-bot-2" })).toMatchObject({
      changes: true,
      replaces: ["serviceName"],
    });
  });

  it.each([
    ["image", { image: "bot:2" }],
    ["secretSet", { secretSet: "other-set" }],
    ["enableNoise", { enableNoise: false }],
    ["autoScaling", { autoScaling: { minAgents: 2, maxAgents: 5 } }],
    ["readyTimeoutSeconds", { readyTimeoutSeconds: 60 }],
    ["imagePullSecretSet", { imagePullSecretSet: "pull-set" }],
  ])("updates %s in place", (field, change) => {
    const outcome = diffAgent(olds, { ...news, ...change });
    expect(outcome).toMatchObject({ changes: true, replaces: [], changed: [field] });
  });

  it("a removed secret set is a change (the update clears it); a removed scaling is not (the agent keeps it)", () => {
    const { secretSet: _s, ...withoutSet } = news;
    expect(diffAgent(olds, withoutSet)).toMatchObject({ changes: true, changed: ["secretSet"] });
  });

  it("a provider setting only is a local change; the deployment and the name stay", () => {
    expect(diffAgent(olds, { ...news, waitForReady: false })).toMatchObject({
      changes: true,
      localOnly: true,
      stables: ["name", "serviceName", "createdAt", "activeDeploymentId", "deployment"],
    });
    expect(diffAgent(olds, { ...news, image: "bot:2" })).toMatchObject({ localOnly: false, stables: ["name", "serviceName", "createdAt"] });
    expect(diffAgent(olds, { ...news, redeployTrigger: "push-2" })).toMatchObject({ changed: ["redeployTrigger"], localOnly: false });
  });

  it("requiredSecrets and drainSeconds are local changes; a state from before them holds drainSeconds 0 and no requiredSecrets", () => {
    expect(diffAgent(olds, { ...news, drainSeconds: 0 })).toMatchObject({ changes: false, changed: [] });
    expect(diffAgent(olds, { ...news, drainSeconds: 60, requiredSecrets: ["TOKEN"] })).toEqual({
      changes: true,
      replaces: [],
      changed: ["requiredSecrets", "drainSeconds"],
      stables: ["name", "serviceName", "createdAt", "activeDeploymentId", "deployment"],
      localOnly: true,
      deleteBeforeReplace: false,
    });
    const declared = { ...olds, requiredSecrets: ["TOKEN"], drainSeconds: 60 };
    expect(diffAgent(declared, { ...news, drainSeconds: 60 })).toMatchObject({ changes: true, changed: ["requiredSecrets"], localOnly: true });
  });

  it("a change of which inputs are secret is a change that sends nothing", () => {
    expect(diffAgent(olds, { ...news, __secretInputs: ["image"] })).toMatchObject({ changes: true, changed: [], localOnly: true });
  });

  it("treats an omitted autoScaling as the service's choice", () => {
    const { autoScaling: _ignored, ...withoutScaling } = news;
    expect(diffAgent(olds, withoutScaling).changes).toBe(false);
  });

  it("treats a default as equal to its omitted form", () => {
    const oldDefaults = { ...olds, enableNoise: false };
    const { enableNoise: _e, ...newsWithout } = news;
    expect(diffAgent(oldDefaults, newsWithout).changes).toBe(false);
  });

  it("reports an unknown image as a change", () => {
    expect(diffAgent(olds, { ...news, image: UNKNOWN_VALUE })).toMatchObject({ changes: true, changed: ["image"] });
  });
});

describe("diffVerb", () => {
  /** The lines the verb says on the resource's row for these old marks and inputs. */
  async function linesOf(pending: "create" | "update" | "rollback" | undefined, inputs: Record<string, unknown>, secretInputs: string[] = []): Promise<string[]> {
    const lines: string[] = [];
    const log = { info: async (line: string) => void lines.push(line), warning: async () => undefined, retry: () => undefined };
    const oldMarks = pending ? { secretInputs, pending } : { secretInputs };
    await diffVerb({ urn: "urn:pulumi:dev::p::agent-hosting:index:Agent::bot", id: "voice-bot", olds: asState(olds), news: inputs, oldMarks, newMarks: { secretInputs: [] }, log });
    return lines;
  }

  it("says that an unfinished update of an earlier up is checked on again, naming its deployment", async () => {
    expect(await linesOf("update", news)).toEqual([
      'agent "voice-bot": the update of an earlier `pulumi up` did not finish (deployment dep-1, image bot:1); `pulumi up` checks on it again instead of sending it twice',
    ]);
    expect((await linesOf("rollback", news))[0]).toContain("the rollback to the last ready spec of an earlier `pulumi up` did not finish");
    expect((await linesOf("update", news, ["image"]))[0]).toContain("(deployment dep-1, image (a secret))");
  });

  it("says nothing of it when the program changes what is sent, nor without an unfinished step", async () => {
    expect(await linesOf("update", { ...news, image: "bot:2" })).toEqual([]);
    expect(await linesOf(undefined, news)).toEqual([]);
  });
});
