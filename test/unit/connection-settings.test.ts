/**
 * Connection-setting mistakes: each is one ConfigurationError, raised before
 * any request, naming the setting where the user wrote it (client option,
 * stack config or environment variable) and the fix, and never echoing the key.
 */
import { MockAgent, errors } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import { ConfigurationError } from "../../src/client/errors";
import { resolveSettings } from "../../src/core/settings";
import { BAD_SETTINGS, VALID_KEY, type BadSettingCase } from "../support/bad-inputs";
import { thrownBy } from "./support/client-harness";

const GOOD_URL = "https://api.example.com/v1";
const mockAgents: MockAgent[] = [];

afterEach(async () => {
  for (const agent of mockAgents.splice(0)) await agent.close();
});

/** A dispatcher that records every request and lets none through. */
function recordingDispatcher(): MockAgent {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  mockAgents.push(agent);
  return agent;
}

function settingsOf(c: BadSettingCase): { baseUrl: string; apiKey: string } {
  return c.setting === "apiKey" ? { baseUrl: GOOD_URL, apiKey: c.value } : { baseUrl: c.value, apiKey: VALID_KEY };
}

function expectSafeConfigurationError(error: unknown, c: BadSettingCase, settingName: string): ConfigurationError {
  expect(error, c.label).toBeInstanceOf(ConfigurationError);
  const text = `${String(error)}\n${JSON.stringify(error)}\n${(error as Error).stack ?? ""}`;
  expect(String(error), c.label).toContain(`${settingName}: `);
  expect(String(error), c.label).toMatch(c.rule);
  expect(text, c.label).not.toContain(VALID_KEY);
  expect(text, c.label).not.toContain("SECRET");
  return error as ConfigurationError;
}

describe("the client's constructor", () => {
  it.each(BAD_SETTINGS)("$label: refused naming the option, nothing sent", (c) => {
    const dispatcher = recordingDispatcher();
    const error = thrownBy(() => new AgentHostingClient({ ...settingsOf(c), dispatcher }));
    expectSafeConfigurationError(error, c, c.setting);
    expect(dispatcher.getCallHistory()?.calls() ?? []).toHaveLength(0);
  });

  it("names the client option as the way to allow plain http", () => {
    const error = thrownBy(() => new AgentHostingClient({ baseUrl: "http://api.example.com/v1", apiKey: VALID_KEY }));
    expect(String(error)).toMatch(/pass the client option allowInsecureHttp: true/);
  });

  it("an empty key is refused naming the option", () => {
    expect(() => new AgentHostingClient({ baseUrl: GOOD_URL, apiKey: "" })).toThrow(/apiKey: the API key is empty/);
  });

  it.each(["http://127.0.0.1:8080/v1", "http://127.5.6.7/v1", "http://localhost:3000/v1", "http://[::1]:9/v1", "http://app.localhost/v1"])(
    "plain http to loopback %s is accepted",
    async (baseUrl) => {
      const client = new AgentHostingClient({ baseUrl, apiKey: VALID_KEY, dispatcher: recordingDispatcher() });
      await client.close();
    },
  );

  it("plain http to another host is accepted when allowed deliberately, and the request goes there", async () => {
    const dispatcher = recordingDispatcher();
    dispatcher.get("http://hosting.internal:8080").intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(200, {
      name: "voice-bot",
      deleted: true,
    });
    const client = new AgentHostingClient({
      baseUrl: "http://hosting.internal:8080/v1",
      apiKey: VALID_KEY,
      allowInsecureHttp: true,
      dispatcher,
    });
    await client.deleteAgent("voice-bot").catch(() => undefined);
    await client.close();
    const calls = dispatcher.getCallHistory()?.calls() ?? [];
    expect(calls.map((c) => c.fullUrl)).toEqual(["http://hosting.internal:8080/v1/agents/voice-bot"]);
  });

  it("a user agent with a line break is refused naming the option; one with spaces is accepted", async () => {
    expect(() => new AgentHostingClient({ baseUrl: GOOD_URL, apiKey: VALID_KEY, userAgent: "my-tool/2.0\n" })).toThrow(
      /userAgent: contains a line break at position 12, which cannot travel in an HTTP header/,
    );
    const client = new AgentHostingClient({ baseUrl: GOOD_URL, apiKey: VALID_KEY, userAgent: "my-tool/2.0 (ci)", dispatcher: recordingDispatcher() });
    await client.close();
  });

  it("a key of every visible ASCII character class is accepted", async () => {
    const client = new AgentHostingClient({ baseUrl: GOOD_URL, apiKey: "Ab9-._~+/=!#$%&'*^`|", dispatcher: recordingDispatcher() });
    await client.close();
  });
});

describe("stack config and environment", () => {
  const configOf = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

  it.each(BAD_SETTINGS)("$label: from stack config, names the config key and `pulumi config set`", (c) => {
    const { baseUrl, apiKey } = settingsOf(c);
    const error = thrownBy(() =>
      resolveSettings(configOf({ "agent-hosting:baseUrl": baseUrl, "agent-hosting:apiKey": apiKey }), {}),
    );
    const name = c.setting === "apiKey" ? "agent-hosting:apiKey" : "agent-hosting:baseUrl";
    expectSafeConfigurationError(error, c, name);
    if (c.setting === "apiKey") expect(String(error)).toMatch(/pulumi config set --secret agent-hosting:apiKey <key>/);
    if (/unencrypted/.test(String(error))) {
      expect(String(error)).toMatch(/pulumi config set agent-hosting:allowInsecureHttp true.*AGENT_HOSTING_ALLOW_INSECURE_HTTP=true/);
    }
  });

  it.each(BAD_SETTINGS)("$label: from the environment, names the variable", (c) => {
    const { baseUrl, apiKey } = settingsOf(c);
    const error = thrownBy(() => resolveSettings(undefined, { AGENT_HOSTING_BASE_URL: baseUrl, AGENT_HOSTING_API_KEY: apiKey }));
    const name = c.setting === "apiKey" ? "AGENT_HOSTING_API_KEY" : "AGENT_HOSTING_BASE_URL";
    expectSafeConfigurationError(error, c, name);
    if (c.setting === "apiKey") expect(String(error)).toMatch(/export AGENT_HOSTING_API_KEY=<key>/);
  });

  it("a key from stack config is named as such even when the base URL comes from the environment", () => {
    const error = thrownBy(() =>
      resolveSettings(configOf({ "agent-hosting:apiKey": `${VALID_KEY}\n` }), { AGENT_HOSTING_BASE_URL: GOOD_URL }),
    );
    expect(String(error)).toMatch(/^ConfigurationError: agent-hosting:apiKey: the API key ends with a line break/);
  });

  it("an all-whitespace key counts as missing", () => {
    expect(() => resolveSettings(configOf({ "agent-hosting:apiKey": " \n", "agent-hosting:baseUrl": GOOD_URL }), {})).toThrow(
      /the API key is not set/,
    );
  });

  it.each([
    [{ "agent-hosting:allowInsecureHttp": "true" }, {}],
    [{}, { AGENT_HOSTING_ALLOW_INSECURE_HTTP: "true" }],
    [{ "agent-hosting:allowInsecureHttp": "TRUE" }, { AGENT_HOSTING_ALLOW_INSECURE_HTTP: "false" }],
  ])("plain http to another host is allowed by %j / %j", (config, env) => {
    const settings = resolveSettings(
      configOf({ ...config, "agent-hosting:baseUrl": "http://hosting.internal/v1", "agent-hosting:apiKey": VALID_KEY }),
      env,
    );
    expect(settings).toEqual({ baseUrl: "http://hosting.internal/v1", apiKey: VALID_KEY, allowInsecureHttp: true });
  });

  it("stack config's false wins over the environment's true", () => {
    expect(() =>
      resolveSettings(
        configOf({ "agent-hosting:allowInsecureHttp": "false", "agent-hosting:baseUrl": "http://hosting.internal/v1", "agent-hosting:apiKey": VALID_KEY }),
        { AGENT_HOSTING_ALLOW_INSECURE_HTTP: "true" },
      ),
    ).toThrow(/unencrypted to hosting\.internal/);
  });

  it("an opt-in that is not true or false is refused naming the setting", () => {
    expect(() =>
      resolveSettings(undefined, {
        AGENT_HOSTING_BASE_URL: GOOD_URL,
        AGENT_HOSTING_API_KEY: VALID_KEY,
        AGENT_HOSTING_ALLOW_INSECURE_HTTP: "yes",
      }),
    ).toThrow(/AGENT_HOSTING_ALLOW_INSECURE_HTTP: must be true or false, got "yes"/);
  });

  it("without an opt-in the settings carry none, and plain http to loopback needs none", () => {
    expect(resolveSettings(undefined, { AGENT_HOSTING_BASE_URL: "http://127.0.0.1:7000/v1/", AGENT_HOSTING_API_KEY: VALID_KEY })).toEqual({
      baseUrl: "http://127.0.0.1:7000/v1",
      apiKey: VALID_KEY,
    });
  });
});

describe("a request undici refuses to send", () => {
  it("is a ConfigurationError, not a retried ConnectionError", async () => {
    // A dispatcher standing for undici's own argument check, which the settings checks keep from being reached.
    class RefusingDispatcher extends MockAgent {
      override request(): never {
        throw new errors.InvalidArgumentError("invalid authorization header");
      }
    }
    const dispatcher = new RefusingDispatcher();
    mockAgents.push(dispatcher);
    const sleeps: number[] = [];
    const client = new AgentHostingClient(
      { baseUrl: GOOD_URL, apiKey: VALID_KEY, dispatcher },
      {
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      },
    );
    const error = await client.getAgent("voice-bot").catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error)).toBe(
      "ConfigurationError: GET /v1/agents/voice-bot: the request could not be sent (invalid authorization header); check the client's settings",
    );
    expect(sleeps).toEqual([]);
  });
});
