/**
 * Program-level tests with pulumi.runtime.setMocks: the resource registers the
 * right type, inputs and defaults, and the ...Output functions resolve.
 *
 * The package is loaded from dist/ with Node's own require (as a program
 * loads it), so the registration carries the built provider text.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../src/emulator";
import { startEmu, type Emu } from "../support/emulator-fixture";
import { API_KEY, IMAGE } from "../support/fixtures";

const load = createRequire(__filename);
const pulumi = load("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
const ah = load("../../dist/index.js") as typeof import("../../src/index");
const shim = load("../../dist/resources/agent/type-tokens.js") as typeof import("../../src/resources/agent/type-tokens");

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  id: string | undefined;
}
const registered: Registered[] = [];

function resolve<T>(output: import("@pulumi/pulumi").Output<T>): Promise<T> {
  return new Promise((res) => output.apply((v) => res(v)));
}

let emulator: Emu;

beforeAll(async () => {
  // The functions run in the program process and make real requests: a local emulator answers them.
  emulator = await startEmu({
    apiKey: API_KEY,
    readyAfterMs: 1500,
    secretSets: { "voice-bot-secrets": ["OPENAI_KEY", "SIP_PASSWORD"] },
  });
  process.env["AGENT_HOSTING_API_KEY"] = API_KEY;
  process.env["AGENT_HOSTING_BASE_URL"] = emulator.url;
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, id: args.id });
        const state = { ...args.inputs, name: args.inputs["serviceName"] ?? args.id, activeDeploymentId: "dep-mock" };
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        return args.inputs;
      },
    },
    "project",
    "stack",
    false,
  );
});

afterAll(async () => {
  await emulator.close();
  delete process.env["AGENT_HOSTING_API_KEY"];
  delete process.env["AGENT_HOSTING_BASE_URL"];
});

describe("Agent under setMocks", () => {
  it("registers the dynamic type with the inputs as given and the provider's module text", async () => {
    const agent = new ah.Agent("voice-bot", {
      serviceName: "voice-bot",
      image: IMAGE,
      secretSet: "voice-bot-secrets",
      autoScaling: { minAgents: 1, maxAgents: 5 },
      enableNoise: true,
    });
    expect(await resolve(agent.serviceName)).toBe("voice-bot");
    expect(await resolve(agent.activeDeploymentId)).toBe("dep-mock");
    const entry = registered.find((r) => r.name === "voice-bot");
    expect(entry?.type).toBe("pulumi-nodejs:dynamic/agent-hosting:Agent");
    expect(entry?.inputs).toMatchObject({
      serviceName: "voice-bot",
      image: IMAGE,
      secretSet: "voice-bot-secrets",
      autoScaling: { minAgents: 1, maxAgents: 5 },
      enableNoise: true,
    });
    const provider = String(entry?.inputs["__provider"]);
    expect(provider).toBe(shim.AGENT_PROVIDER_SOURCE);
    expect(provider).not.toContain(API_KEY);
    expect(Buffer.byteLength(provider)).toBeLessThan(512);
  });

  it("gives the provider the Agent's own URN, at the top level and under a component", async () => {
    const top = new ah.Agent("urn-top", { serviceName: "urn-top", image: IMAGE });
    class Fleet extends pulumi.ComponentResource {
      constructor(name: string) {
        super("acme:index:Fleet", name);
      }
    }
    const fleet = new Fleet("fleet");
    const child = new ah.Agent("urn-child", { serviceName: "urn-child", image: IMAGE }, { parent: fleet });
    for (const [agent, name] of [[top, "urn-top"], [child, "urn-child"]] as const) {
      const urn = await resolve(agent.urn);
      const given = registered.find((r) => r.name === name)?.inputs["__urn"];
      expect(given).toBe(urn);
    }
    expect(await resolve(child.urn)).toContain("acme:index:Fleet$pulumi-nodejs:dynamic/agent-hosting:Agent::urn-child");
  });

  it("lists the secret inputs only when some are secret, wherever the secret sits", async () => {
    new ah.Agent("plain-inputs", { serviceName: "plain-inputs", image: pulumi.output(IMAGE), enableNoise: true });
    const secret = new ah.Agent("secret-inputs", {
      serviceName: "secret-inputs",
      image: IMAGE,
      secretSet: pulumi.secret("voice-bot-secrets"),
      autoScaling: { minAgents: 1, maxAgents: pulumi.secret(3) },
    });
    await resolve(secret.urn);
    const inputsOf = (name: string) => registered.find((r) => r.name === name)?.inputs ?? {};
    expect(inputsOf("plain-inputs")).not.toHaveProperty("__secretInputs");
    expect(inputsOf("secret-inputs")["__secretInputs"]).toEqual(["secretSet", "autoScaling"]);
  });

  it("leaves Error.stackTraceLimit as it found it, and source positions recorded", () => {
    const before = Error.stackTraceLimit;
    new ah.Agent("limit-kept", { serviceName: "limit-kept", image: IMAGE });
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error("probe").stack?.split("\n").length).toBeGreaterThan(1);
  });

  it("Agent.get registers a read of the named agent", async () => {
    const adopted = ah.Agent.get("adopted", "existing-bot");
    expect(await resolve(adopted.id)).toBe("existing-bot");
    const entry = registered.find((r) => r.name === "adopted");
    expect(entry?.id).toBe("existing-bot");
    expect(entry?.type).toBe("pulumi-nodejs:dynamic/agent-hosting:Agent");
  });
});

describe("functions under setMocks", () => {
  it("getSecretSetOutput resolves the field names", async () => {
    const result = await resolve(ah.getSecretSetOutput({ name: pulumi.output("voice-bot-secrets") }));
    expect(result).toEqual({ name: "voice-bot-secrets", fieldNames: ["OPENAI_KEY", "SIP_PASSWORD"] });
  });

  it("getAgentLogsOutput resolves one page, taking Dates for times", async () => {
    const client = new ah.AgentHostingClient({ baseUrl: emulator.url, apiKey: API_KEY });
    await client.createAgent({ serviceName: "logs-bot", image: "bot:1" });
    await client.close();
    const before = new Date(Date.now() - 60_000);
    const result = await resolve(
      ah.getAgentLogsOutput({ agentName: pulumi.output("logs-bot"), limit: 2, order: "asc", startTime: before }),
    );
    expect(result.total.relation).toBe("eq");
    expect(result.total.value).toBeGreaterThanOrEqual(2);
    expect(result.logs).toHaveLength(2);
    expect(result.logs[0]?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    const future = await resolve(
      ah.getAgentLogsOutput({ agentName: "logs-bot", startTime: new Date(Date.now() + 3_600_000) }),
    );
    expect(future.logs).toEqual([]);
  });

  it("getAgentLogsOutput rounds Date bounds as the client does: startTime down, endTime up", async () => {
    const client = new ah.AgentHostingClient({ baseUrl: emulator.url, apiKey: API_KEY });
    await client.createAgent({ serviceName: "edge-bot", image: "bot:1" });
    const control = new EmulatorControl(emulator.baseUrl);
    const at = Date.UTC(2024, 0, 2, 3, 4, 5, 500); // an entry half-way through a second
    await control.appendLogs("edge-bot", 1, { startMs: at, prefix: "edge line" });
    const bounds = { startTime: new Date(at + 100), endTime: new Date(at + 100) };
    const direct = await client.getAgentLogs({ agentName: "edge-bot", ...bounds });
    await client.close();
    const viaOutput = await resolve(ah.getAgentLogsOutput({ agentName: "edge-bot", ...bounds }));
    expect(direct.logs.map((l) => l.log)).toEqual(["edge line 0"]);
    expect(viaOutput).toEqual(direct);
  });

  it("a missing secret set is an error naming it", async () => {
    await expect(ah.getSecretSet({ name: "missing-set" })).rejects.toThrow(/secret set "missing-set" does not exist/);
  });
});
