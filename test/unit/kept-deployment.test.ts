/**
 * onFailure "keep": the error of a failed deployment says that it stays in
 * place at the service and, for an update with a last ready spec, how to go
 * back to that spec; its kept outputs describe the failed deployment.
 */
import { describe, expect, it } from "vitest";
import { AgentNotReadyError, AgentUnhealthyError } from "../../src/client/errors";
import type { Call } from "../../src/core/resource-entry";
import { deploymentFailed } from "../../src/resources/agent/rollout";
import type { DeploymentFailure, Step } from "../../src/resources/agent/rollout-wait";
import { asInputs } from "../../src/resources/agent/state";
import type { ServiceAgent } from "../../src/resources/agent/state";

// The keep path sends nothing: the call is never used.
const NO_CALL = {} as Call;
const inputs = (image: string) => asInputs({ serviceName: "voice-bot", image, nodeType: "arm", waitForReady: true, readyTimeoutSeconds: 60, onFailure: "keep" });
const agent = { name: "voice-bot", activeDeploymentId: "dep-2", ready: true, activeDeploymentReady: true } as ServiceAgent;
const unhealthy: DeploymentFailure = {
  agent,
  description: 'agent "voice-bot": deployment dep-2 became ready, but its health check found a line',
  fix: "Fix what the line reports, in the image or its settings.",
  unhealthy: true,
};

describe("onFailure keep", () => {
  it("says an update's failed deployment stays in place and how to go back to the last ready spec", async () => {
    const step: Step = { verb: "update", inputs: inputs("bot:2"), secretInputs: [], call: NO_CALL, lastReady: { inputs: inputs("bot:1"), deploymentId: "dep-1" } };
    const error = await deploymentFailed(step, unhealthy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentUnhealthyError);
    const message = (error as AgentUnhealthyError).message;
    expect(message).toContain('onFailure "keep": deployment dep-2 stays in place at the service.');
    expect(message).toContain('To go back to the last ready spec (image bot:1, deployment dep-1), set onFailure: "rollback" and run `pulumi up`, or declare that spec again.');
    expect(message).toContain("Fix what the line reports");
    expect((error as AgentUnhealthyError).properties).toMatchObject({ image: "bot:2", activeDeploymentId: "dep-2", __pending: "update", __lastReady: { deploymentId: "dep-1" } });
  });

  it("never shows an image the program declares secret", async () => {
    const step: Step = { verb: "update", inputs: inputs("bot:2"), secretInputs: ["image"], call: NO_CALL, lastReady: { inputs: inputs("bot:1-token"), deploymentId: "dep-1" } };
    const message = ((await deploymentFailed(step, unhealthy).catch((e: unknown) => e)) as Error).message;
    expect(message).toContain("To go back to the last ready spec (image (a secret), deployment dep-1)");
    expect(message).not.toContain("bot:1-token");
  });

  it("has no way back to name for a create", async () => {
    const step: Step = { verb: "create", inputs: inputs("bot:fail"), secretInputs: [], call: NO_CALL };
    const error = await deploymentFailed(step, { ...unhealthy, unhealthy: false, fix: "Fix the image, or raise readyTimeoutSeconds." }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentNotReadyError);
    const message = (error as AgentNotReadyError).message;
    expect(message).toContain('onFailure "keep": deployment dep-2 stays in place at the service.');
    expect(message).not.toContain("last ready spec");
  });
});
