/**
 * The serialized provider's text, loaded the way Pulumi's dynamic-provider
 * process loads it (a CommonJS module whose `exports.handler()` returns the
 * provider), and the provider it hands out, driven against undici's
 * MockAgent as that process drives it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import * as implementation from "../../src/hosts/dynamic/provider-impl";
import { AGENT_PROVIDER_SOURCE, PROVIDER_IMPLEMENTATION_MODULE } from "../../src/resources/agent/type-tokens";
import { API_KEY, agentJson } from "../support/fixtures";
import { JSON_REPLY } from "./support/client-harness";

type Provider = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** The provider's methods, as Pulumi's dynamic-provider process calls them. */
const PROVIDER_METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"];

/** Compiles `source` (this version's text unless given) with a `require` that hands out `modules[name]` and records each name asked for. */
function load(modules: Record<string, unknown>, source = AGENT_PROVIDER_SOURCE) {
  const required: string[] = [];
  const fakeRequire = (name: string) => {
    required.push(name);
    if (!(name in modules)) throw new Error(`Cannot find module '${name}'`);
    return modules[name];
  };
  const exports: { handler?: () => Provider } = {};
  new Function("exports", "require", source)(exports, fakeRequire);
  if (typeof exports.handler !== "function") throw new Error("the text exports no handler");
  return { handler: exports.handler, required };
}

let mockAgent: MockAgent | undefined;
afterEach(async () => {
  await mockAgent?.close();
  mockAgent = undefined;
});

describe("the serialized provider's text", () => {
  it("is a one-line module that captures nothing", () => {
    expect(AGENT_PROVIDER_SOURCE).toBe(`exports.handler = () => require("${PROVIDER_IMPLEMENTATION_MODULE}").provider;\n`);
    expect(Buffer.byteLength(AGENT_PROVIDER_SOURCE)).toBeLessThan(128);
  });

  it("requires nothing when loaded; its handler loads the installed implementation's provider", () => {
    const { handler, required } = load({ [PROVIDER_IMPLEMENTATION_MODULE]: implementation });
    expect(required).toEqual([]);
    expect(handler()).toBe(implementation.provider);
    expect(required).toEqual([PROVIDER_IMPLEMENTATION_MODULE]);
  });

  it("fails with Node's own message when the package is not installed beside the program", () => {
    const { handler } = load({});
    expect(() => handler()).toThrow(`Cannot find module '${PROVIDER_IMPLEMENTATION_MODULE}'`);
  });

  it("names the module the package exports for it", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as { name: string; exports: Record<string, unknown> };
    expect(PROVIDER_IMPLEMENTATION_MODULE).toBe(`${pkg.name}/provider-impl`);
    expect(pkg.exports).toHaveProperty("./provider-impl");
  });
});

describe("the provider it hands out", () => {
  it("has exactly the methods the dynamic-provider process calls", () => {
    expect(Object.keys(implementation.provider)).toEqual(PROVIDER_METHODS);
  });

  it("configure takes the stack's config from the request, and delete reads the agent and DELETEs it with it", async () => {
    mockAgent = new MockAgent({ enableCallHistory: true });
    mockAgent.disableNetConnect();
    const origin = "https://configured.test";
    const config = new Map([
      ["agent-hosting:apiKey", API_KEY],
      ["agent-hosting:baseUrl", `${origin}/v1`],
    ]);
    mockAgent
      .get(origin)
      .intercept({ path: "/v1/agents/voice-bot", method: "GET", headers: { authorization: `Bearer ${API_KEY}` } })
      .reply(200, agentJson({ name: "voice-bot", ready: true }), JSON_REPLY);
    mockAgent
      .get(origin)
      .intercept({ path: "/v1/agents/voice-bot", method: "DELETE", headers: { authorization: `Bearer ${API_KEY}` } })
      .reply(200, { status: "OK" }, JSON_REPLY);
    // The module as installed, with its provider built by the factory around the MockAgent.
    const installed = { provider: implementation.createAgentDynamicProvider({ client: { dispatcher: mockAgent, retryBaseDelayMs: 5, retryMaxDelayMs: 20 } }) };
    const { handler } = load({ [PROVIDER_IMPLEMENTATION_MODULE]: installed });
    const provider = handler();
    await provider["configure"]?.({ config: { get: (key: string) => config.get(key) } });
    await expect(provider["delete"]?.("voice-bot", { serviceName: "voice-bot" })).resolves.toBeUndefined();
    mockAgent.assertNoPendingInterceptors();
  });
});
