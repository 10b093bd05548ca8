/**
 * Configuration mistakes through the real CLI: each (a key or base URL
 * malformed, missing or unsafe) fails with one error that names the setting
 * and the fix, before any request and without a retry, leaving nothing in
 * the state and the key in no state file; the
 * service unreachable from the program's own calls is one line naming the base
 * URL and the setting; plain http leaves the machine only when allowed; a key
 * set without --secret is warned about. The key is never in any message.
 */
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../src/emulator";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { agentsInState, expectNoKeyInStack } from "./support/secrets";
import { e2eStack, repoRoot, type OpResult, type StackHandle } from "./support/stack";
import { closedPort } from "../support/closed-port";

const API_KEY = "e2e-config-SECRET-93b1";
const PLAIN_KEY_WARNING = /warning: agent-hosting: agent-hosting:apiKey is set without --secret, so the API key sits in plain text/;
const agentParams = { agents: [{ resource: "a", args: { serviceName: "config-bot", image: "bot:1" } }] };
const dataSources = `${repoRoot}/test/e2e/programs/data-sources.cjs`;

/** This machine's first non-loopback IPv4 address: the emulator listens there too. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

let emulator: Emu;
let control: EmulatorControl;
let local: string;
const stacks: StackHandle[] = [];

beforeAll(async () => {
  emulator = await startEmu({ host: "0.0.0.0", apiKey: API_KEY, readyAfterMs: 200, secretSets: { "voice-secrets": ["TOKEN"] } });
  local = `http://127.0.0.1:${emulator.port}`;
  control = new EmulatorControl(local);
});

afterAll(async () => {
  await emulator?.close();
  for (const s of stacks) s.remove();
});

function newStack(name: string, config: Record<string, { value: string; secret?: boolean }>, program?: string): StackHandle {
  const stack = e2eStack(name, program ? { baseUrl: "", apiKey: "", config, program } : { baseUrl: "", apiKey: "", config });
  stacks.push(stack);
  return stack;
}

const text = (op: OpResult): string => `${op.error ?? ""}\n${op.engineOutput}`;

interface MistakeCase {
  label: string;
  config: Record<string, { value: string; secret?: boolean }>;
  env?: Record<string, string>;
  error: RegExp;
  /** Text the error must not contain (what the user typed that must not be echoed). */
  hidden?: string;
}

describe("configuration mistakes through pulumi up", () => {
  const url = () => ({ value: `${local}/v1` });
  const key = { value: API_KEY, secret: true };
  // A bad base URL under the CLI: one with credentials (kept out of every message), a fragment, no /v1;
  // every rule of the base URL runs in process against resolveSettings (test/integration/bad-input.test.ts).
  const cases = (): MistakeCase[] => [
    {
      label: "a key with a trailing newline in stack config",
      config: { "agent-hosting:baseUrl": url(), "agent-hosting:apiKey": { value: `${API_KEY}\n`, secret: true } },
      error: /agent-hosting:apiKey: the API key ends with a line break \(a copy-paste mistake\?\); set it again without surrounding whitespace: `pulumi config set --secret agent-hosting:apiKey <key>`/,
    },
    {
      label: "a key with a non-ASCII character in the environment",
      config: { "agent-hosting:baseUrl": url() },
      env: { AGENT_HOSTING_API_KEY: `${API_KEY}ü` },
      error: /AGENT_HOSTING_API_KEY: the API key contains a non-ASCII character \(U\+00FC\) at position 23, which cannot travel in the Authorization header/,
    },
    {
      label: "a base URL with credentials",
      config: { "agent-hosting:baseUrl": { value: `http://admin:hunter2@127.0.0.1:${emulator.port}/v1` }, "agent-hosting:apiKey": key },
      error: /agent-hosting:baseUrl: must not carry credentials \(user:password@\); remove them, the API key belongs in agent-hosting:apiKey/,
      hidden: "hunter2",
    },
    {
      label: "a base URL with a fragment",
      config: { "agent-hosting:baseUrl": { value: `${local}/v1#docs` }, "agent-hosting:apiKey": key },
      error: /agent-hosting:baseUrl: must not carry a query or fragment/,
    },
    {
      label: "a base URL without /v1",
      config: { "agent-hosting:baseUrl": { value: local }, "agent-hosting:apiKey": key },
      error: new RegExp(`agent-hosting:baseUrl: must end with the version segment /v1, got "${local}"; set it to for example ${local}/v1`),
    },
    {
      label: "no API key, in stack config or the environment",
      config: { "agent-hosting:baseUrl": url() },
      error: /pulumi config set --secret agent-hosting:apiKey[^]*AGENT_HOSTING_API_KEY|AGENT_HOSTING_API_KEY[^]*pulumi config set --secret agent-hosting:apiKey/,
    },
    {
      label: "plain http to a host other than loopback",
      config: { "agent-hosting:baseUrl": { value: `http://${external}:${emulator.port}/v1` }, "agent-hosting:apiKey": key },
      error: new RegExp(
        `agent-hosting:baseUrl: "http://${external}:${emulator.port}/v1" would send the API key unencrypted to ${external}; use https, ` +
          "or, to accept that deliberately \\(a network you trust\\), run `pulumi config set agent-hosting:allowInsecureHttp true` " +
          "or set AGENT_HOSTING_ALLOW_INSECURE_HTTP=true",
      ),
    },
  ];

  it("each mistake fails up with one error naming the setting and the fix, before any request and without a retry", async () => {
    expect(external, "this test needs a non-loopback IPv4 address").toBeDefined();
    const before = (await control.stats()).requests;
    const all = cases();
    const outcomes: { c: MistakeCase; stack: StackHandle; up: OpResult }[] = [];
    for (let i = 0; i < all.length; i += 3) {
      outcomes.push(
        ...(await Promise.all(
          all.slice(i, i + 3).map(async (c, j) => {
            const stack = newStack(`mistake-${i + j}`, c.config);
            const up = await stack.run("up", { params: agentParams, ...(c.env ? { env: c.env } : {}) });
            return { c, stack, up };
          }),
        )),
      );
    }
    for (const { c, up } of outcomes) {
      expect(up.ok, c.label).toBe(false);
      expect(text(up), c.label).toMatch(c.error);
      expect(text(up), c.label).not.toMatch(/retry \d/);
      expect(text(up), c.label).not.toContain(API_KEY);
      if (c.hidden) expect(text(up), c.label).not.toContain(c.hidden);
    }
    expect((await control.stats()).requests).toBe(before);
    // Nothing in any state, and the key in no state file or message (the exports run side by side).
    await Promise.all(
      outcomes.map(async ({ c, stack, up }) => {
        expect(await agentsInState(stack), c.label).toEqual([]);
        await expectNoKeyInStack(stack, API_KEY, [text(up)]);
      }),
    );
  }, 400_000);

  it("plain http to a host other than loopback works once allowed deliberately; a secret key draws no warning", async () => {
    expect(external, "this test needs a non-loopback IPv4 address").toBeDefined();
    const stack = newStack("insecure-allowed", {
      "agent-hosting:baseUrl": { value: `http://${external}:${emulator.port}/v1` },
      "agent-hosting:apiKey": { value: API_KEY, secret: true },
      "agent-hosting:allowInsecureHttp": { value: "true" },
    });
    const up = await stack.run("up", { params: agentParams });
    expect(up.error).toBeUndefined();
    expect((await control.listAgents()).agents.map((a) => a.name)).toContain("config-bot");
    expect(up.engineOutput).not.toMatch(PLAIN_KEY_WARNING);
    await expectNoKeyInStack(stack, API_KEY, [up.engineOutput]);
  });
});

describe("the service unreachable from the program's own calls", () => {
  it("getSecretSet and getAgentLogs fail the preview with one line each, naming the base URL and its setting", async () => {
    const port = await closedPort();
    const base = `http://127\\.0\\.0\\.1:${port}/v1`;
    const config = { "agent-hosting:baseUrl": { value: `http://127.0.0.1:${port}/v1` }, "agent-hosting:apiKey": { value: API_KEY, secret: true } };
    // One data source per preview: the first failure ends a program, so a second one may or may not be reached.
    const cases = [
      {
        params: { secretSet: "voice-secrets" },
        line: `error: agent-hosting: getSecretSet\\("voice-secrets"\\) could not reach the service at ${base} \\(GET /v1/secrets/voice-secrets: connection failed \\(ECONNREFUSED\\)\\); check agent-hosting:baseUrl and that the service is running\\n`,
      },
      {
        params: { logsOf: "config-bot" },
        line: `error: agent-hosting: getAgentLogs\\("config-bot"\\) could not reach the service at ${base} .*; check agent-hosting:baseUrl`,
      },
    ];
    for (const { params, line } of cases) {
      const stack = newStack(`unreachable-${Object.keys(params)[0]}`, config, dataSources);
      const preview = await stack.run("preview", { params });
      expect(preview.ok).toBe(false);
      const output = text(preview);
      expect(output).toMatch(new RegExp(line));
      expect(output).not.toMatch(/Unhandled exception|unhandled exception/);
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toContain(API_KEY);
    }
  });

  it("a base URL from the environment is named as AGENT_HOSTING_BASE_URL", async () => {
    const port = await closedPort();
    const stack = newStack("unreachable-env", {}, dataSources);
    const preview = await stack.run("preview", {
      params: { secretSet: "voice-secrets" },
      env: { AGENT_HOSTING_BASE_URL: `http://127.0.0.1:${port}/v1`, AGENT_HOSTING_API_KEY: API_KEY },
    });
    expect(preview.ok).toBe(false);
    expect(text(preview)).toMatch(
      new RegExp(`could not reach the service at http://127\\.0\\.0\\.1:${port}/v1 .*; check AGENT_HOSTING_BASE_URL and that the service is running`),
    );
    expect(text(preview)).not.toMatch(/^\s+at /m);
    expect(text(preview)).not.toContain(API_KEY);
  });

  it("a bad key setting in a program's own call is one line too", async () => {
    const stack = newStack(
      "data-source-bad-key",
      { "agent-hosting:baseUrl": { value: `${local}/v1` }, "agent-hosting:apiKey": { value: ` ${API_KEY}`, secret: true } },
      dataSources,
    );
    const preview = await stack.run("preview", { params: { secretSet: "voice-secrets" } });
    expect(preview.ok).toBe(false);
    expect(text(preview)).toMatch(/error: agent-hosting: getSecretSet\("voice-secrets"\): agent-hosting:apiKey: the API key starts with a space/);
    expect(text(preview)).not.toMatch(/^\s+at /m);
    expect(text(preview)).not.toContain(API_KEY);
  });
});

describe("a key set without --secret", () => {
  it("draws a warning that it sits in plain text in the state, which it does", async () => {
    const stack = newStack("plain-key", {
      "agent-hosting:baseUrl": { value: `${local}/v1` },
      "agent-hosting:apiKey": { value: API_KEY },
    });
    const up = await stack.run("up", { params: { agents: [{ resource: "p", args: { serviceName: "plain-key-bot", image: "bot:1" } }] } });
    expect(up.error).toBeUndefined();
    expect(up.engineOutput).toMatch(PLAIN_KEY_WARNING);
    // Once per run: the engine shows it as it happens and once more under "Diagnostics:".
    const diagnostics = up.engineOutput.split("Diagnostics:")[1] ?? "";
    expect(diagnostics.match(new RegExp(PLAIN_KEY_WARNING.source, "g"))?.length).toBe(1);
    // What the warning says: the engine keeps the plain config value among the default provider's inputs.
    const exported = await stack.run("export");
    expect(JSON.stringify(exported.deployment)).toContain(API_KEY);
  });
});
