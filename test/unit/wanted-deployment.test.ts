/**
 * The wanted deployment of a create or update (design.md section 4) on both
 * readings of an update: a service that switches at once, and one that rolls
 * (the old deployment serves until the new one validates). What the wait
 * waits for, what it reads the logs of, what keep records, and how a
 * refresh's drift report tells a pending deployment.
 */
import { describe, expect, it } from "vitest";
import type { AgentHostingClient } from "../../src/client/client";
import type { AgentLogsQuery } from "../../src/client/request-types";
import type { Call } from "../../src/core/resource-entry";
import { deploymentFailed } from "../../src/resources/agent/rollout";
import type { Step } from "../../src/resources/agent/rollout-wait";
import { asInputs } from "../../src/resources/agent/state";
import { isAgentReady, pendingDeploymentOf, wantedDeploymentOf, type ServiceAgent } from "../../src/resources/agent/state";
import { DeploymentSupersededError, describeAgent, watchedAgent } from "../../src/resources/agent/state";
import { reviewDrift } from "../../src/review/review";
import { fixtureText } from "./support/review-fixtures";

const scaling = { minReplicas: 1, maxReplicas: 1 };
const agent = (fields: Partial<ServiceAgent>): ServiceAgent => ({
  name: "voice-bot",
  ready: true,
  activeDeploymentId: "dep-1",
  activeDeploymentReady: true,
  autoScaling: scaling,
  deployment: { id: "dep-1" },
  ...fields,
});

/** An update answered by a service that rolls: dep-1 serves, dep-2 validates. */
const rolling = agent({ ready: false, desiredDeploymentId: "dep-2", available: true, deployment: { id: "dep-2" } });
/** The same agent once dep-2 validated and serves. */
const switched = agent({ activeDeploymentId: "dep-2", desiredDeploymentId: "dep-2", available: true, deployment: { id: "dep-2" } });
/** An update answered by a service that switches at once. */
const immediate = agent({ ready: false, activeDeploymentReady: false, activeDeploymentId: "dep-2", deployment: { id: "dep-2" } });

describe("the wanted deployment", () => {
  it("is desiredDeploymentId, else deployment.id, else activeDeploymentId", () => {
    expect(wantedDeploymentOf(rolling)).toBe("dep-2");
    expect(wantedDeploymentOf(immediate)).toBe("dep-2");
    expect(wantedDeploymentOf(agent({ deployment: null }))).toBe("dep-1");
    expect(wantedDeploymentOf(agent({ deployment: { id: "" } }))).toBe("dep-1");
    expect(pendingDeploymentOf(rolling)).toBe("dep-2");
    expect(pendingDeploymentOf(switched)).toBeUndefined();
    expect(pendingDeploymentOf(immediate)).toBeUndefined();
  });

  it("is ready only when the service serves it and both flags are true", () => {
    expect(isAgentReady(rolling, "dep-2")).toBe(false);
    // The old deployment serving and ready is not the update's deployment.
    expect(isAgentReady({ ...rolling, ready: true }, "dep-2")).toBe(false);
    expect(isAgentReady(switched, "dep-2")).toBe(true);
    expect(isAgentReady(immediate, "dep-2")).toBe(false);
    expect(isAgentReady({ ...immediate, ready: true, activeDeploymentReady: true }, "dep-2")).toBe(true);
    expect(isAgentReady({ ...switched, deployment: null }, "dep-2")).toBe(false);
  });

  it("is described with what serves while it does not", () => {
    expect(describeAgent(rolling, "dep-2")).toBe("deployment dep-2 not serving yet (deployment dep-1 serves, available=true), ready=false, activeDeploymentReady=true");
    expect(describeAgent(switched, "dep-2")).toBe("deployment dep-2, ready=true, activeDeploymentReady=true");
    expect(describeAgent(undefined)).toBe("no answer yet");
  });
});

/** A client that answers GET /agents/{name} with `answers` in turn and records each logs query. */
function fakeClient(answers: ServiceAgent[], queries: AgentLogsQuery[]): AgentHostingClient {
  return {
    getAgent: async () => answers.shift() ?? switched,
    getAgentLogs: async (query: AgentLogsQuery) => {
      queries.push(query);
      return { total: { value: 1, relation: "eq" }, logs: [{ log: `line of ${query.deploymentId}`, timestamp: "2026-11-27T10:00:00.000000001Z" }] };
    },
  } as unknown as AgentHostingClient;
}

describe("the watched agent", () => {
  it("reads the wanted deployment's logs, not the serving one's", async () => {
    const queries: AgentLogsQuery[] = [];
    const watched = watchedAgent(fakeClient([], queries), "voice-bot", "dep-2");
    expect(await watched.newestLogs(rolling, 3)).toEqual([{ log: "line of dep-2", timestamp: "2026-11-27T10:00:00.000000001Z" }]);
    expect(queries).toEqual([{ agentName: "voice-bot", deploymentId: "dep-2", limit: 3, order: "desc" }]);
  });

  it("fails a poll once another deployment replaced the wanted one, naming both and what serves", async () => {
    const other = agent({ ready: false, desiredDeploymentId: "dep-3", available: true, deployment: { id: "dep-3" } });
    const watched = watchedAgent(fakeClient([rolling, other], []), "voice-bot", "dep-2");
    const signal = new AbortController().signal;
    expect(await watched.poll(signal)).toBe(rolling);
    const error = await watched.poll(signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeploymentSupersededError);
    expect((error as Error).message).toBe(
      'agent "voice-bot": deployment dep-2, which this operation waits for, was superseded at the service by deployment dep-3 (an update from outside this stack?); ' +
        "the service serves deployment dep-1 (ready=false, activeDeploymentReady=true). Run `pulumi refresh` to record what the service runs, then `pulumi up` to apply the program again.",
    );
  });
});

describe("onFailure keep on a service that rolls updates", () => {
  const inputs = (image: string) => asInputs({ serviceName: "voice-bot", image, nodeType: "arm", waitForReady: true, readyTimeoutSeconds: 60, onFailure: "keep" });

  it("records what serves and the pending deployment, and says the next up waits for it again", async () => {
    const step: Step = { verb: "update", inputs: inputs("bot:fail"), secretInputs: [], call: {} as Call, lastReady: { inputs: inputs("bot:1"), deploymentId: "dep-1" } };
    const failure = { agent: rolling, description: 'agent "voice-bot" did not become ready', fix: "Fix the image, or raise readyTimeoutSeconds.", unhealthy: false };
    const error = (await deploymentFailed(step, failure).catch((e: unknown) => e)) as Error & { properties: Record<string, unknown> };
    expect(error.message).toContain(
      'onFailure "keep": deployment dep-2 stays wanted at the service, which keeps serving deployment dep-1 while it does not validate;',
    );
    expect(error.properties).toMatchObject({ image: "bot:fail", activeDeploymentId: "dep-1", desiredDeploymentId: "dep-2", available: true, ready: false, __pending: "update" });
  });
});

describe("the drift report of an agent mid-rollout", () => {
  /** drift-clean.json with bot-a read by the refresh as serving dep-1 while dep-2 is pending. */
  function midRollout(): string {
    const doc = JSON.parse(fixtureText("drift-clean")) as { steps: { urn: string; newState?: { outputs?: Record<string, unknown> } }[] };
    const step = doc.steps.find((s) => s.urn.endsWith("::bot-a"));
    const outputs = step?.newState?.outputs;
    if (!outputs) throw new Error("drift-clean.json has no refreshed bot-a");
    outputs["desiredDeploymentId"] = "dep-2-pending";
    outputs["available"] = true;
    return JSON.stringify(doc);
  }

  it("names what serves and what is pending, and never says no drift", () => {
    const clean = JSON.parse(fixtureText("drift-clean")) as { steps: { urn: string; newState?: { outputs?: Record<string, unknown> } }[] };
    const serving = clean.steps.find((s) => s.urn.endsWith("::bot-a"))?.newState?.outputs?.["activeDeploymentId"];
    const { report, drifted, markdown } = reviewDrift(midRollout(), { skipNoChanges: true });
    expect(drifted).toBe(false);
    expect(report.rollouts).toEqual([{ resource: "bot-a", serviceName: { kind: "value", value: "bot-a" }, serving, pending: "dep-2-pending" }]);
    expect(markdown).not.toContain("no drift");
    expect(markdown).toContain("nothing changed outside Pulumi · **1** serving an older deployment while a new one is pending");
    expect(markdown).toContain(`the service serves deployment \`${String(serving)}\` while deployment \`dep-2-pending\` is pending`);
    expect(reviewDrift(fixtureText("drift-clean")).markdown).toContain("no drift");
  });
});
