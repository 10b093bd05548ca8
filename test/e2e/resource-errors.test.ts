/**
 * Errors on the resource path name the fix, on both paths, through the CLI:
 * a refused key names the setting it came from (never the key), an
 * unreachable service names the URL tried and agent-hosting:baseUrl after the
 * retries, an update that finds its agent gone says to run `pulumi refresh`,
 * a name taken at the service shows `Agent.get` with its real arguments (and,
 * on the native plugin, the Python and Go forms). The native plugin takes
 * agent-hosting:allowInsecureHttp as the dynamic provider does: plain http to
 * a host that is not loopback by name is refused without it, naming it, and
 * accepted with it.
 *
 * The dynamic provider runs a TypeScript program (stack-op.mjs); the
 * native plugin a Pulumi YAML program with the CLI in its directory.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { closedPort } from "../support/closed-port";
import { pulumiCommands } from "./support/pulumi-command";
import { useEmulator } from "../support/emulator-fixture";
import { useStacks } from "./support/e2e-fixture";
import type { OpResult, StackHandle } from "./support/stack";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "resource-errors-SECRET-7c2e91";
const WRONG_KEY = "wrong-KEY-never-shown-5a3f";
const IMAGE = "registry.example.com/bot:1";

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 200 });
const makeStack = useStacks();

const text = (op: OpResult): string => `${op.error ?? ""}\n${op.engineOutput}`;
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const dynamicStack = (name: string, config: Record<string, { value: string; secret?: boolean }>): StackHandle =>
  makeStack(name, { baseUrl: "", apiKey: "", config });

const agent = (resource: string, serviceName: string, image = IMAGE) => ({ agents: [{ resource, args: { serviceName, image } }] });

describe("the dynamic provider's errors name the fix", () => {
  it("a refused key names the setting it came from, stack config or environment, never the key", async () => {
    const fromConfig = dynamicStack("wrong-key-config", {
      "agent-hosting:baseUrl": { value: fx.emulator.url },
      "agent-hosting:apiKey": { value: WRONG_KEY, secret: true },
    });
    const fromEnv = dynamicStack("wrong-key-env", { "agent-hosting:baseUrl": { value: fx.emulator.url } });
    const [viaConfig, viaEnv] = await Promise.all([
      fromConfig.run("up", { params: agent("k", "key-config-bot") }),
      fromEnv.run("up", { params: agent("k", "key-env-bot"), env: { AGENT_HOSTING_API_KEY: WRONG_KEY } }),
    ]);
    expect(viaConfig.ok).toBe(false);
    expect(text(viaConfig)).toMatch(
      new RegExp(`the service at ${escaped(fx.emulator.url)} refused the API key taken from agent-hosting:apiKey .*set the right one with \`pulumi config set --secret agent-hosting:apiKey <key>\``),
    );
    expect(viaEnv.ok).toBe(false);
    expect(text(viaEnv)).toMatch(/refused the API key taken from AGENT_HOSTING_API_KEY .*set the right one with the environment variable AGENT_HOSTING_API_KEY/);
    for (const op of [viaConfig, viaEnv]) {
      expect(text(op)).not.toContain(WRONG_KEY);
      expect(text(op)).not.toContain(API_KEY);
    }
  });

  it("an unreachable service names the URL tried and agent-hosting:baseUrl, after the retries", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const stack = dynamicStack("unreachable", { "agent-hosting:baseUrl": { value: url }, "agent-hosting:apiKey": { value: API_KEY, secret: true } });
    const up = await stack.run("up", { params: agent("u", "unreachable-bot") });
    expect(up.ok).toBe(false);
    expect(text(up)).toMatch(/retry 3 in/);
    expect(text(up)).toMatch(
      new RegExp(`could not reach the service at ${escaped(url)} \\(POST /v1/agents: connection failed \\(ECONNREFUSED\\), after the client's retries\\); check agent-hosting:baseUrl and that the service is running`),
    );
    expect(text(up)).not.toContain(API_KEY);
  });

  it("an update of an agent deleted outside Pulumi says to run pulumi refresh", async () => {
    const stack = dynamicStack("gone", { "agent-hosting:baseUrl": { value: fx.emulator.url }, "agent-hosting:apiKey": { value: API_KEY, secret: true } });
    expect((await stack.run("up", { params: agent("g", "gone-bot") })).error).toBeUndefined();
    await fx.client.deleteAgent("gone-bot");
    const up = await stack.run("up", { params: agent("g", "gone-bot", "registry.example.com/bot:2") });
    expect(up.ok).toBe(false);
    expect(text(up)).toMatch(/agent "gone-bot" no longer exists at the service \(deleted outside Pulumi\?\); run `pulumi refresh` to drop it from the stack's state/);
    const refresh = await stack.run("refresh");
    expect(refresh.error).toBeUndefined();
    expect((await stack.run("up", { params: agent("g", "gone-bot", "registry.example.com/bot:2") })).error).toBeUndefined();
  });

  it("a name taken at the service shows Agent.get with the program's resource name and the service name", async () => {
    await fx.client.createAgent({ serviceName: "taken-bot", image: IMAGE });
    const stack = dynamicStack("taken", { "agent-hosting:baseUrl": { value: fx.emulator.url }, "agent-hosting:apiKey": { value: API_KEY, secret: true } });
    const up = await stack.run("up", { params: agent("mine", "taken-bot") });
    expect(up.ok).toBe(false);
    expect(text(up)).toContain('read the agent with Agent.get("mine", "taken-bot")');
    expect(text(up)).toContain("pulumi import agent-hosting:index:Agent mine taken-bot");
    await fx.client.deleteAgent("taken-bot");
  });
});

describe("the native plugin, from a Pulumi YAML program directory", () => {
  const PROGRAM = [
    "name: resource-errors",
    "runtime: yaml",
    "config:",
    "  serviceName:",
    "    type: string",
    "resources:",
    "  bot:",
    "    type: agent-hosting:index:Agent",
    "    properties:",
    "      serviceName: ${serviceName}",
    `      image: ${IMAGE}`,
    "",
  ].join("\n");
  let program: StackDir;
  let env: NodeJS.ProcessEnv;
  const cli = pulumiCommands(() => ({ cwd: program.workDir, env }));

  /** A new stack in the program directory with this config; the key is always set --secret. */
  async function newStack(name: string, config: Record<string, string>): Promise<void> {
    expect((await cli.run("stack", "init", name)).code).toBe(0);
    for (const [key, value] of Object.entries(config)) {
      const secret = key === "agent-hosting:apiKey" ? ["--secret"] : [];
      expect((await cli.run("config", "set", ...secret, key, value, "--stack", name)).code).toBe(0);
    }
  }

  beforeAll(() => {
    program = stackDir("resource-errors-yaml");
    writeFileSync(join(program.workDir, "Pulumi.yaml"), PROGRAM);
    env = yamlProgramEnv(program.env);
  });

  afterAll(() => program?.remove());

  it("a name taken at the service shows Agent.get in TypeScript, Python and Go with its real arguments", async () => {
    await fx.client.createAgent({ serviceName: "taken-yaml-bot", image: IMAGE });
    await newStack("taken", { "agent-hosting:baseUrl": fx.emulator.url, "agent-hosting:apiKey": API_KEY, serviceName: "taken-yaml-bot" });
    const up = await cli.run("up", "--yes", "--stack", "taken");
    expect(up.code).not.toBe(0);
    expect(up.out).toContain(
      'Agent.get("bot", "taken-yaml-bot") in TypeScript, agent_hosting.Agent.get("bot", "taken-yaml-bot") in Python, ' +
        'agenthosting.GetAgent(ctx, "bot", pulumi.ID("taken-yaml-bot"), nil) in Go',
    );
    expect(up.out).not.toContain(API_KEY);
    await fx.client.deleteAgent("taken-yaml-bot");
  });

  it("a refused key names agent-hosting:apiKey, never the key", async () => {
    await newStack("wrong-key", { "agent-hosting:baseUrl": fx.emulator.url, "agent-hosting:apiKey": WRONG_KEY, serviceName: "yaml-key-bot" });
    const up = await cli.run("up", "--yes", "--stack", "wrong-key");
    expect(up.code).not.toBe(0);
    expect(up.out).toMatch(/refused the API key taken from agent-hosting:apiKey/);
    expect(up.out).not.toContain(WRONG_KEY);
  });

  it("plain http to a host that is not loopback by name: refused without agent-hosting:allowInsecureHttp, naming it; accepted with it", async () => {
    // The IPv4-mapped address reaches the emulator on loopback, but is not a loopback host by name.
    const mapped = `http://[::ffff:127.0.0.1]:${fx.emulator.port}/v1`;
    await newStack("insecure", { "agent-hosting:baseUrl": mapped, "agent-hosting:apiKey": API_KEY, serviceName: "insecure-yaml-bot" });
    const refused = await cli.run("preview", "--stack", "insecure");
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(/would send the API key unencrypted to \[::ffff:7f00:1\]/);
    expect(refused.out).toContain("pulumi config set agent-hosting:allowInsecureHttp true");
    expect((await fx.control.listAgents()).agents.map((a) => a.name)).not.toContain("insecure-yaml-bot");

    expect((await cli.run("config", "set", "agent-hosting:allowInsecureHttp", "true", "--stack", "insecure")).code).toBe(0);
    // The up's own preview passes (its part of the output, before the update's "Updating (insecure):"), then the update.
    const up = await cli.run("up", "--yes", "--stack", "insecure");
    expect(up.code, up.out).toBe(0);
    const [preview = "", update] = up.out.split(/^Updating \(insecure\)/m);
    expect(update, up.out).toBeDefined();
    expect(preview).toMatch(/\+ +agent-hosting:index:Agent +\S+ +create/);
    expect((await fx.control.listAgents()).agents.map((a) => a.name)).toContain("insecure-yaml-bot");
    expect(cli.seen.join("\n")).not.toContain(API_KEY);
  });
});
