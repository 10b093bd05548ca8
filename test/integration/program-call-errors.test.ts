/**
 * The data sources' failures in a program's own process (getSecretSet,
 * getAgentLogs), against a real emulator and a closed port: each is a
 * pulumi.RunError, which Pulumi prints as its one-line message without a
 * stack trace, naming the base URL and the setting to check, carrying the
 * client's typed error as `cause` and never the key.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, ConfigurationError, ConnectionError, NotFoundError } from "../../src/client/errors";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { getAgentLogs, getSecretSet, ProgramCallError } from "../../src/index";
import { closedPort } from "../support/closed-port";

const API_KEY = "program-call-SECRET-5e0b";
let emulator: Emu;
const saved = { ...process.env };

beforeAll(async () => {
  emulator = await startEmu({ apiKey: API_KEY, readyAfterMs: 1500, secretSets: { "voice-secrets": ["TOKEN"] } });
});

afterAll(async () => {
  await emulator.close();
});

afterEach(() => {
  for (const key of ["AGENT_HOSTING_BASE_URL", "AGENT_HOSTING_API_KEY"]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

function useSettings(baseUrl: string, apiKey: string): void {
  process.env["AGENT_HOSTING_BASE_URL"] = baseUrl;
  process.env["AGENT_HOSTING_API_KEY"] = apiKey;
}

async function failure(promise: Promise<unknown>): Promise<ProgramCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(pulumi.RunError.isInstance(error)).toBe(true);
  expect(error).toBeInstanceOf(ProgramCallError);
  const text = `${String(error)}\n${JSON.stringify(error)}`;
  expect(text).not.toContain(API_KEY);
  expect((error as Error).message).not.toContain("\n");
  return error as ProgramCallError;
}

describe("data-source failures in the program", () => {
  it("an unreachable service names the base URL and AGENT_HOSTING_BASE_URL", async () => {
    const port = await closedPort();
    useSettings(`http://127.0.0.1:${port}/v1`, API_KEY);
    const error = await failure(getSecretSet({ name: "voice-secrets" }));
    expect(error.message).toBe(
      `agent-hosting: getSecretSet("voice-secrets") could not reach the service at http://127.0.0.1:${port}/v1 ` +
        "(GET /v1/secrets/voice-secrets: connection failed (ECONNREFUSED)); check AGENT_HOSTING_BASE_URL and that the service is running",
    );
    expect(error.cause).toBeInstanceOf(ConnectionError);
    const logs = await failure(getAgentLogs({ agentName: "voice-bot" }));
    expect(logs.message).toMatch(/^agent-hosting: getAgentLogs\("voice-bot"\) could not reach the service at http:\/\/127\.0\.0\.1:\d+\/v1 /);
  });

  it("a refused key names the key's settings, not the key", async () => {
    useSettings(emulator.url, "wrong-key-0000");
    const error = await failure(getSecretSet({ name: "voice-secrets" }));
    expect(error.message).toMatch(
      new RegExp(`^agent-hosting: getSecretSet\\("voice-secrets"\\): the service at ${emulator.url} refused the API key \\(.*401.*\\); check agent-hosting:apiKey or AGENT_HOSTING_API_KEY$`),
    );
    expect(error.message).not.toContain("wrong-key-0000");
    expect(error.cause).toBeInstanceOf(AuthenticationError);
  });

  it("a bad setting is the same one line, before any request", async () => {
    useSettings(emulator.url, `${API_KEY}\n`);
    const error = await failure(getSecretSet({ name: "voice-secrets" }));
    expect(error.message).toMatch(/^agent-hosting: getSecretSet\("voice-secrets"\): AGENT_HOSTING_API_KEY: the API key ends with a line break/);
    expect(error.cause).toBeInstanceOf(ConfigurationError);
  });

  it("a missing set keeps its message, with the typed error as cause", async () => {
    useSettings(emulator.url, API_KEY);
    const error = await failure(getSecretSet({ name: "missing-set" }));
    expect(error.message).toMatch(/getSecretSet\("missing-set"\): .*secret set "missing-set" does not exist/);
    expect(error.cause).toBeInstanceOf(NotFoundError);
    expect(await getSecretSet({ name: "voice-secrets" })).toEqual({ name: "voice-secrets", fieldNames: ["TOKEN"] });
  });
});
