/**
 * The Agent's outputs as the state keeps them: written with the engine's
 * secrets (outputProps), read back typed once at the host (asState) whatever
 * wrote them, this version or an earlier one: outputs left out, a create
 * whose answer never came, the scaling under either member names.
 */
import { describe, expect, it } from "vitest";
import { agentSchema, asServiceAgent } from "../../src/client/schemas";
import { asSecret } from "../../src/core/engine-sentinels";
import { asInputs, asState, outputProps, outputsWithoutAnswer, toOutputs, withInputs } from "../../src/resources/agent/state";
import type { ServiceAgent } from "../../src/resources/agent/state";
import { agentJson, IMAGE } from "../support/fixtures";

const inputs = asInputs({ serviceName: "voice-bot", image: IMAGE, secretSet: "voice-secrets", autoScaling: { minAgents: 1, maxAgents: 3 } });
/** The agent as the client reads it: the emulator's JSON through the client's parsing. */
const agent: ServiceAgent = asServiceAgent(agentSchema.parse({ ...agentJson({ envFromSecretNames: ["voice-secrets"] }), activeSessionCount: 2 }));

describe("the Agent's stored outputs", () => {
  it("read back as they were written", () => {
    const written = outputProps(toOutputs(inputs, agent), []);
    expect(written).toMatchObject({ serviceName: "voice-bot", image: IMAGE, name: "voice-bot", activeDeploymentId: "dep-1", activeSessionCount: 2 });
    expect(written["autoScaling"]).toEqual({ minReplicas: 1, maxReplicas: 3 });
    expect(written["deployment"]).not.toHaveProperty("manifest");
    const state = asState(written);
    expect(state.inputs).toMatchObject({ serviceName: "voice-bot", image: IMAGE, secretSet: "voice-secrets", autoScaling: { minAgents: 1, maxAgents: 3 } });
    expect(outputProps(state, [])).toEqual(written);
  });

  it("mark as secrets what reflects a secret input", () => {
    const written = outputProps(toOutputs(inputs, agent), ["autoScaling", "image"]);
    expect(written["autoScaling"]).toEqual(asSecret({ minReplicas: 1, maxReplicas: 3 }));
    expect(written["manifest"]).toEqual(asSecret(agent.deployment?.manifest));
    expect(written["image"]).toBe(IMAGE);
  });

  it("of a create whose answer never came: no deployment, the flags false, no scaling", () => {
    const state = asState(outputsWithoutAnswer(inputs));
    expect(state.agent).toEqual({ name: "voice-bot", ready: false, activeDeploymentId: "", activeDeploymentReady: false, deployment: null, manifest: null });
    expect(state.inputs).not.toHaveProperty("autoScaling");
  });

  it("with outputs left out, and the scaling under its input names", () => {
    const state = asState({ serviceName: "voice-bot", image: IMAGE, autoScaling: { minAgents: 2, maxAgents: 4 } });
    expect(state.inputs).toEqual({ serviceName: "voice-bot", image: IMAGE, autoScaling: { minAgents: 2, maxAgents: 4 } });
    expect(state.agent.name).toBe("voice-bot");
    expect(state.agent.desiredDeploymentId).toBeUndefined();
  });

  it("keep the service's answer through a change of provider settings only", () => {
    const before = asState(outputProps(toOutputs(inputs, agent), []));
    const after = outputProps(withInputs(before, { ...inputs, readyTimeoutSeconds: 30 }), []);
    expect(after).toEqual({ ...outputProps(before, []), readyTimeoutSeconds: 30 });
  });
});
