/**
 * Bad input through the client against a running emulator: every case is
 * refused before any request (the emulator's request counter, read around
 * each case, stays put; a control case shows the counter does count a
 * request the client sends), naming the field and the rule; bad settings
 * name the setting; a wrong key is refused by the service without being
 * echoed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import { AuthenticationError, ConfigurationError, InputValidationError } from "../../src/client/errors";
import { resolveSettings } from "../../src/core/settings";
import { EmulatorControl } from "../../src/emulator";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { BAD_INPUTS, PROVIDER_ONLY_FIELDS } from "../support/bad-inputs";

const API_KEY = "bad-input-SECRET-key-8e21";
let emulator: Emu;
let control: EmulatorControl;
let client: AgentHostingClient;

beforeAll(async () => {
  emulator = await startEmu({ apiKey: API_KEY, readyAfterMs: 1500, secretSets: {} });
  control = new EmulatorControl(emulator.baseUrl);
  client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: API_KEY });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

/** The /v1 requests the emulator received while `call` ran. */
async function requestsDuring(call: () => Promise<unknown>): Promise<number> {
  const before = (await control.stats()).requests;
  await call().catch(() => undefined);
  return (await control.stats()).requests - before;
}

/** Runs `call`, expects an InputValidationError without the key, and that no request reached the emulator. */
async function refusal(call: () => Promise<unknown>): Promise<InputValidationError> {
  let error: unknown;
  const sent = await requestsDuring(() =>
    call().then(
      () => undefined,
      (e: unknown) => {
        error = e;
      },
    ),
  );
  expect(error).toBeInstanceOf(InputValidationError);
  expect(String(error)).not.toContain(API_KEY);
  expect(sent, "requests that reached the emulator").toBe(0);
  return error as InputValidationError;
}

describe("the request counter the refusals are checked with", () => {
  it("counts a request the client does send", async () => {
    expect(await requestsDuring(() => client.getAgent("valid-bot"))).toBe(1);
    expect(await requestsDuring(() => client.getSecretSet("no-such-set"))).toBe(1);
  });
});

describe("bad Agent inputs through the client", () => {
  it.each(BAD_INPUTS)("$label: refused before sending, naming $field", async ({ args, field, rule }) => {
    const error = await refusal(() => client.createAgent(args as never));
    // A provider setting is no field of the service's body: the client names it, nested members included, as unknown.
    const providerOnly = PROVIDER_ONLY_FIELDS.has(field.split(".")[0] ?? field);
    const named = providerOnly ? (field.split(".")[0] ?? field) : field;
    const failure = error.failures.find((f) => f.property === named);
    expect(failure, JSON.stringify(error.failures)).toBeDefined();
    expect(failure?.reason).toMatch(providerOnly ? /not a known field/ : rule);
    expect(error.message).toContain(named);
  });

  it.each([
    ["../x", "getAgent"],
    ["a%2Fb", "getAgent"],
    ["a b", "deleteAgent"],
    ["UPPER", "getAgent"],
    ["x/y", "updateAgent"],
  ] as const)("agent name %j in a path is refused by %s", async (name, method) => {
    const call = () => (method === "updateAgent" ? client.updateAgent(name, { image: "bot:1" }) : client[method](name));
    const error = await refusal(call);
    expect(error.failures[0]?.property).toBe("name");
  });

  it.each(["ab", "s".repeat(64), "Bad_Set"])("secret set name %j is refused", async (name) => {
    await refusal(() => client.getSecretSet(name));
  });

  it.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 1001 }, "limit"],
    [{ offset: -1 }, "offset"],
    [{ order: "up" }, "order"],
    [{ startTime: -5 }, "startTime"],
    [{ endTime: new Date("not a date") }, "endTime"],
  ] as const)("logs query %j is refused naming %s", async (query, field) => {
    const error = await refusal(() => client.getAgentLogs({ agentName: "valid-bot", ...(query as object) }));
    expect(error.failures.map((f) => f.property)).toContain(field);
  });
});

describe("bad settings", () => {
  it.each([
    ["ftp://host/v1", /http or https/],
    ["http://host/v2", /must end with the version segment \/v1/],
    ["not a url", /is not a URL/],
    ["http://user:pass@host/v1", /must not carry credentials/],
    ["http://host/v1?x=1", /query or fragment/],
  ])("base URL %j is refused naming the setting", (url, rule) => {
    expect(() => resolveSettings({ get: (k) => (k === "agent-hosting:baseUrl" ? url : k === "agent-hosting:apiKey" ? API_KEY : undefined) }, {})).toThrow(
      rule,
    );
    expect(() => resolveSettings(undefined, { AGENT_HOSTING_BASE_URL: url, AGENT_HOSTING_API_KEY: API_KEY })).toThrow(
      /AGENT_HOSTING_BASE_URL/,
    );
  });

  it("a missing key names both ways to set it", () => {
    const error = (() => {
      try {
        resolveSettings(undefined, { AGENT_HOSTING_BASE_URL: "https://host/v1" });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error)).toMatch(/pulumi config set --secret agent-hosting:apiKey/);
    expect(String(error)).toMatch(/AGENT_HOSTING_API_KEY/);
  });

  it("a trailing slash after /v1 is accepted; stack config wins over the environment", () => {
    const settings = resolveSettings(
      { get: (k) => ({ "agent-hosting:baseUrl": "https://config.example/v1/", "agent-hosting:apiKey": "from-config" })[k] },
      { AGENT_HOSTING_BASE_URL: "https://env.example/v1", AGENT_HOSTING_API_KEY: "from-env" },
    );
    expect(settings).toEqual({ baseUrl: "https://config.example/v1", apiKey: "from-config" });
  });

  it("a wrong key is refused by the service, and the error does not echo it", async () => {
    const wrong = "wrong-KEY-must-not-leak-0042";
    const other = new AgentHostingClient({ baseUrl: emulator.url, apiKey: wrong });
    const error = await other.getAgent("valid-bot").catch((e: unknown) => e);
    await other.close();
    expect(error).toBeInstanceOf(AuthenticationError);
    for (const text of [String(error), JSON.stringify(error), (error as Error).stack ?? ""]) {
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(API_KEY);
    }
  });
});
