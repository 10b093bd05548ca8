/** The functions' arguments as the model lists them are the ones the client's query type and the plugin's function take. */
import { describe, expect, it } from "vitest";
import type { AgentLogsQuery } from "../../src/client/request-types";
import { argNamesOf } from "../../src/functions/function-fields";
import type { GetAgentLogsArgs } from "../../src/native/functions";

describe("function arguments", () => {
  it("getAgentLogs: the model's arguments are exactly the members of AgentLogsQuery and of the plugin's GetAgentLogsArgs", () => {
    // Every member, required: a member added to either type without the model (or removed) fails the typecheck or this test.
    const query: Required<AgentLogsQuery> = { agentName: "a", limit: 1, offset: 0, deploymentId: "d", query: "q", order: "asc", startTime: 1, endTime: 2 };
    const pluginArgs: Required<GetAgentLogsArgs> = { ...query, startTime: 1, endTime: 2 };
    expect(Object.keys(query)).toEqual([...argNamesOf("getAgentLogs")]);
    expect(Object.keys(pluginArgs)).toEqual([...argNamesOf("getAgentLogs")]);
  });

  it("getSecretSet takes a name only", () => {
    expect(argNamesOf("getSecretSet")).toEqual(["name"]);
  });
});
