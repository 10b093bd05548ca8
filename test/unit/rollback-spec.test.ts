/**
 * What onFailure "rollback" returns to: the last ready spec from the
 * previous outputs, or, for an unfinished update, the spec it replaced as
 * its state kept it (a secret when any input is); and the inputs after a
 * rollback, which keep the provider settings the program declares now.
 */
import { describe, expect, it } from "vitest";
import { asInputs, asState } from "../../src/resources/agent/state";
import { marksOf, withMarks } from "../../src/core/state-marks";
import { lastReadyBefore, lastReadyOf, rolledBackInputs } from "../../src/resources/agent/rollout";

const OLD_OUTPUTS = {
  serviceName: "voice-bot",
  image: "registry.example.com/bot:1",
  nodeType: "arm",
  secretSet: "voice-secrets",
  autoScaling: { minReplicas: 1, maxReplicas: 3 },
  enableNoise: true,
  waitForReady: true,
  readyTimeoutSeconds: 600,
  redeployTrigger: "push-1",
  onFailure: "keep",
  name: "voice-bot",
  ready: true,
  activeDeploymentId: "dep-1",
  activeDeploymentReady: true,
};

describe("lastReadyOf", () => {
  it("reads the spec and the deployment of the previous outputs, the scaling in its input form", () => {
    const lastReady = lastReadyOf(asState(OLD_OUTPUTS), false);
    expect(lastReady?.deploymentId).toBe("dep-1");
    expect(lastReady?.inputs).toMatchObject({ image: "registry.example.com/bot:1", secretSet: "voice-secrets", autoScaling: { minAgents: 1, maxAgents: 3 }, enableNoise: true });
  });

  it("has none while the outputs hold an unfinished step, or no deployment", () => {
    expect(lastReadyOf(asState(OLD_OUTPUTS), true)).toBeUndefined();
    expect(lastReadyOf(asState({ ...OLD_OUTPUTS, activeDeploymentId: "" }), false)).toBeUndefined();
  });
});

describe("rolledBackInputs", () => {
  it("takes what the service runs and redeployTrigger from the last ready spec, the provider settings from the program", () => {
    const wanted = asInputs({
      serviceName: "voice-bot",
      image: "registry.example.com/bot:2",
      imagePullSecretSet: "pull-creds",
      autoScaling: { minAgents: 2, maxAgents: 5 },
      redeployTrigger: "push-2",
      readyTimeoutSeconds: 30,
      onFailure: "rollback",
      healthCheck: { failOnLogQuery: "panic", watchSeconds: 10 },
    });
    const back = rolledBackInputs(wanted, lastReadyOf(asState(OLD_OUTPUTS), false)?.inputs ?? wanted);
    expect(back).toEqual({
      serviceName: "voice-bot",
      image: "registry.example.com/bot:1",
      nodeType: "arm",
      secretSet: "voice-secrets",
      autoScaling: { minAgents: 1, maxAgents: 3 },
      enableNoise: true,
      redeployTrigger: "push-1",
      waitForReady: true,
      readyTimeoutSeconds: 30,
      onFailure: "rollback",
      healthCheck: { failOnLogQuery: "panic", watchSeconds: 10 },
      drainSeconds: 0,
    });
  });
});

describe("lastReadyBefore", () => {
  const kept = { deploymentId: "dep-1", spec: { image: "registry.example.com/bot:1", nodeType: "arm", enableNoise: false } };
  const unfinished = { ...OLD_OUTPUTS, image: "registry.example.com/bot:2", activeDeploymentId: "dep-2" };

  it("is the previous outputs' spec after a finished step or an unfinished rollback", () => {
    expect(lastReadyBefore(asState(OLD_OUTPUTS), { secretInputs: [] })?.deploymentId).toBe("dep-1");
    expect(lastReadyBefore(asState(OLD_OUTPUTS), { secretInputs: [], pending: "rollback" })?.deploymentId).toBe("dep-1");
  });

  it("is the spec an unfinished update replaced, kept in its state; none for a create or a state without it", () => {
    const back = lastReadyBefore(asState(unfinished), { secretInputs: [], pending: "update", lastReady: kept });
    expect(back).toEqual({ deploymentId: "dep-1", inputs: expect.objectContaining({ serviceName: "voice-bot", image: "registry.example.com/bot:1" }) });
    expect(lastReadyBefore(asState(unfinished), { secretInputs: [], pending: "update" })).toBeUndefined();
    expect(lastReadyBefore(asState(unfinished), { secretInputs: [], pending: "create" })).toBeUndefined();
  });

  it("survives the state: written as __lastReady, a secret when any input is, and read back", () => {
    const plain = withMarks({}, { secretInputs: [], pending: "update", lastReady: kept });
    expect(plain["__lastReady"]).toEqual(kept);
    expect(marksOf(plain).lastReady).toEqual(kept);
    const secret = withMarks({}, { secretInputs: ["image"], pending: "update", lastReady: kept });
    expect(secret["__lastReady"]).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: kept });
    expect(marksOf(secret).lastReady).toEqual(kept);
  });
});
