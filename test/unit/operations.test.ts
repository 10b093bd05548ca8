/** The comparison behind every test `up`: what the preview showed each agent, against what the update did. */
import { describe, expect, it } from "vitest";
import { agentOperationRecorder, disagreementMessage, isAgentType, operationDisagreements } from "../support/project-scripts";

const BOT = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/agent-hosting:Agent::bot";
const NATIVE = "urn:pulumi:dev::p::agent-hosting:index:Agent::native";

describe("agent operations of a preview and its update", () => {
  it("records the operations of Agents only, from camelCase and snake_case events", () => {
    const recorder = agentOperationRecorder();
    recorder.onEvent({ resourcePreEvent: { metadata: { urn: BOT, type: "pulumi-nodejs:dynamic/agent-hosting:Agent", op: "create" } } });
    recorder.onEvent({ resource_pre_event: { metadata: { urn: NATIVE, type: "agent-hosting:index:Agent", op: "same" } } });
    recorder.onEvent({ resourcePreEvent: { metadata: { urn: "urn:…::pulumi:pulumi:Stack::s", type: "pulumi:pulumi:Stack", op: "create" } } });
    recorder.onEvent({ diagnosticEvent: { message: "x" } });
    expect(recorder.ops).toEqual({ [BOT]: ["create"], [NATIVE]: ["same"] });
    expect(isAgentType("agent-hosting:index:AgentPolicy")).toBe(false);
  });

  it("a succeeded update must do exactly what the preview showed", () => {
    const preview = { [BOT]: ["create-replacement", "replace", "delete-replaced"], [NATIVE]: ["same"] };
    expect(operationDisagreements(preview, { ...preview }, true)).toEqual([]);
    expect(operationDisagreements(preview, { [BOT]: preview[BOT] }, true)).toEqual([{ urn: NATIVE, preview: ["same"], update: [] }]);
    expect(operationDisagreements({ [BOT]: ["same"] }, { [BOT]: ["update"] }, true)).toEqual([{ urn: BOT, preview: ["same"], update: ["update"] }]);
    expect(operationDisagreements({}, { [BOT]: ["create"] }, true)).toEqual([{ urn: BOT, preview: [], update: ["create"] }]);
  });

  it("a failed update may stop early, but what it reached must begin the preview's operations", () => {
    const preview = { [BOT]: ["create-replacement", "replace", "delete-replaced"], [NATIVE]: ["create"] };
    expect(operationDisagreements(preview, { [BOT]: ["create-replacement"] }, false)).toEqual([]);
    expect(operationDisagreements(preview, { [NATIVE]: ["update"] }, false)).toEqual([{ urn: NATIVE, preview: ["create"], update: ["update"] }]);
  });

  it("names every disagreement in one message", () => {
    expect(disagreementMessage([])).toBeUndefined();
    expect(disagreementMessage([{ urn: BOT, preview: ["same"], update: ["update"] }])).toBe(
      `the preview and the update disagree about these agents' operations:\n${BOT}: preview ["same"], update ["update"]`,
    );
  });
});
