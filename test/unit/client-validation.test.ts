/**
 * AgentHostingClient: input that breaks a rule is refused with an
 * InputValidationError naming the field, before any request. No interceptor
 * is registered and net connect is disabled; the call history proves that
 * nothing was dispatched.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentHostingError, InputValidationError } from "../../src/client/errors";
import type { AgentLogsQuery, CreateAgentBody, UpdateAgentBody } from "../../src/client/request-types";
import type { IterateLogsArgs } from "../../src/client/client";
import { collect, makeHarness, rejectionOf, thrownBy, type Harness } from "./support/client-harness";
import { IMAGE } from "../support/fixtures";


let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  expect(h.calls()).toEqual([]);
  await h.finish();
});

function inputError(error: unknown): InputValidationError {
  expect(error).toBeInstanceOf(InputValidationError);
  expect(error).toBeInstanceOf(AgentHostingError);
  return error as InputValidationError;
}

const properties = (error: InputValidationError) => error.failures.map((f) => f.property);

describe("createAgent body", () => {
  it("names every bad field at once", async () => {
    const body = {
      serviceName: "Voice_Bot",
      image: "registry.example.com/voice-bot",
      nodeType: "x86",
      imagePullSecretSet: "pull_set",
      secretSet: "ab",
      autoScaling: { minAgents: 3, maxAgents: 2 },
      enableNoise: "yes",
    } as unknown as CreateAgentBody;

    const error = inputError(await rejectionOf(h.client.createAgent(body)));

    expect(properties(error)).toEqual([
      "serviceName",
      "image",
      "nodeType",
      "imagePullSecretSet",
      "secretSet",
      "autoScaling.minAgents",
      "enableNoise",
    ]);
    expect(error.failures.find((f) => f.property === "image")?.reason).toMatch(/tag/);
    expect(error.failures.find((f) => f.property === "secretSet")?.reason).toMatch(/3 to 63/);
    expect(error.failures.find((f) => f.property === "autoScaling.minAgents")?.reason).toMatch(/≤ maxAgents/);
    for (const property of properties(error)) expect(error.message).toContain(`${property}: `);
  });

  it("names the missing required fields", async () => {
    const error = inputError(await rejectionOf(h.client.createAgent({} as unknown as CreateAgentBody)));
    expect(error.failures).toEqual([
      { property: "serviceName", reason: "is required" },
      { property: "image", reason: "is required" },
    ]);
  });

  it("refuses an unknown field (a typo is not sent silently)", async () => {
    const body = { serviceName: "voice-bot", image: IMAGE, minAgents: 2 } as unknown as CreateAgentBody;
    const error = inputError(await rejectionOf(h.client.createAgent(body)));
    expect(error.failures).toEqual([{ property: "minAgents", reason: "is not a known field" }]);
  });

  it.each([
    [{ minAgents: -1, maxAgents: 2 }, "autoScaling.minAgents"],
    [{ minAgents: 0, maxAgents: 0 }, "autoScaling.maxAgents"],
    [{ minAgents: 0, maxAgents: 1.5 }, "autoScaling.maxAgents"],
    [{ minAgents: 0 }, "autoScaling.maxAgents"],
  ])("refuses autoScaling %j naming %s", async (autoScaling, property) => {
    const body = { serviceName: "voice-bot", image: IMAGE, autoScaling } as unknown as CreateAgentBody;
    const error = inputError(await rejectionOf(h.client.createAgent(body)));
    expect(properties(error)).toEqual([property]);
  });

  it.each(["../x", "a%2Fb", "a b", "UPPER", "", "-bot", "bot-", "a.b", "a".repeat(55)])(
    "refuses serviceName %j",
    async (serviceName) => {
      const error = inputError(await rejectionOf(h.client.createAgent({ serviceName, image: IMAGE })));
      expect(properties(error)).toEqual(["serviceName"]);
    },
  );
});

describe("updateAgent body", () => {
  it("refuses serviceName in an update body and a missing image", async () => {
    const body = { serviceName: "voice-bot" } as unknown as UpdateAgentBody;
    const error = inputError(await rejectionOf(h.client.updateAgent("voice-bot", body)));
    expect(error.failures).toEqual([
      { property: "image", reason: "is required" },
      { property: "serviceName", reason: "is not a known field" },
    ]);
  });

  it("names a bad image and a bad secret set", async () => {
    const body = { image: "voice bot:1", secretSet: "a".repeat(64) };
    const error = inputError(await rejectionOf(h.client.updateAgent("voice-bot", body)));
    expect(properties(error)).toEqual(["image", "secretSet"]);
  });
});

const BAD_AGENT_NAMES = ["../x", "a%2Fb", "a b", "UPPER", "a/b", "", "..", "a?b", "a".repeat(55)];

describe.each([
  ["getAgent", (h: Harness, name: string) => h.client.getAgent(name), "name"],
  ["updateAgent", (h: Harness, name: string) => h.client.updateAgent(name, { image: IMAGE }), "name"],
  ["deleteAgent", (h: Harness, name: string) => h.client.deleteAgent(name), "name"],
  ["getAgentLogs", (h: Harness, name: string) => h.client.getAgentLogs({ agentName: name }), "agentName"],
] as const)("%s refuses agent names that would change the path", (_label, invoke, property) => {
  it.each(BAD_AGENT_NAMES)("%j", async (name) => {
    const error = inputError(await rejectionOf(invoke(h, name)));
    expect(properties(error)).toEqual([property]);
  });
});

describe("iterateAgentLogs refuses bad agent names at the call, before iterating", () => {
  it.each(BAD_AGENT_NAMES)("%j", (name) => {
    const error = inputError(thrownBy(() => h.client.iterateAgentLogs({ agentName: name })));
    expect(properties(error)).toEqual(["agentName"]);
  });
});

describe("getSecretSet refuses bad set names", () => {
  it.each(["ab", "a".repeat(64), "../x", "a%2Fb", "a b", "UPPER", "a/b", "", ".abc", "abc.", "a_b_c"])("%j", async (name) => {
    const error = inputError(await rejectionOf(h.client.getSecretSet(name)));
    expect(properties(error)).toEqual(["name"]);
  });
});

const BAD_QUERIES: [string, Partial<AgentLogsQuery>, string][] = [
  ["limit 0", { limit: 0 }, "limit"],
  ["limit 1001", { limit: 1001 }, "limit"],
  ["limit 1.5", { limit: 1.5 }, "limit"],
  ["offset -1", { offset: -1 }, "offset"],
  ["offset 2.5", { offset: 2.5 }, "offset"],
  ['order "up"', { order: "up" as unknown as "asc" }, "order"],
  ["an empty deploymentId", { deploymentId: "" }, "deploymentId"],
  ["startTime -1", { startTime: -1 }, "startTime"],
  ["startTime in milliseconds with a fraction", { startTime: 1714557600.5 }, "startTime"],
  ["an invalid Date as endTime", { endTime: new Date(Number.NaN) }, "endTime"],
];

describe("getAgentLogs refuses a bad query", () => {
  it.each(BAD_QUERIES)("%s", async (_label, query, property) => {
    const error = inputError(await rejectionOf(h.client.getAgentLogs({ agentName: "voice-bot", ...query })));
    expect(properties(error)).toEqual([property]);
  });

  it("names every bad parameter at once", async () => {
    const query = { agentName: "UPPER", limit: 0, offset: -1, order: "up" as unknown as "asc" };
    const error = inputError(await rejectionOf(h.client.getAgentLogs(query)));
    expect(properties(error)).toEqual(["agentName", "limit", "offset", "order"]);
  });
});

describe("iterateAgentLogs refuses a bad query at the call", () => {
  // `limit` caps the total here, so only its lower bound and integrality apply.
  const iterateBad = BAD_QUERIES.filter(([label]) => label !== "limit 1001");

  it.each(iterateBad)("%s", (_label, query, property) => {
    const error = inputError(thrownBy(() => h.client.iterateAgentLogs({ agentName: "voice-bot", ...query })));
    expect(properties(error)).toEqual([property]);
  });

  it.each([0, 1001, 2.5])("pageSize %d is refused, naming pageSize", (pageSize) => {
    const args: IterateLogsArgs = { agentName: "voice-bot", pageSize };
    const error = inputError(thrownBy(() => h.client.iterateAgentLogs(args)));
    expect(properties(error)).toEqual(["pageSize"]);
  });

  it("even when the iterator would be drained at once", async () => {
    const error = await rejectionOf((async () => collect(h.client.iterateAgentLogs({ agentName: "voice-bot", offset: -5 })))());
    expect(properties(inputError(error))).toEqual(["offset"]);
  });
});
