/**
 * The Agent policy pack (`pulumi-agent-hosting/policy`) under the real CLI,
 * from its own directory as a user keeps it: `pulumi preview --policy-pack
 * DIR --policy-pack-config FILE` of a Pulumi YAML program (native Agents),
 * and the same pack given to the Automation API's preview of a TypeScript
 * program (dynamic Agents). A violation names the Agent and the rule; a
 * mandatory one stops the preview, an advisory one only warns, a disabled
 * one says nothing. Nothing reaches the service.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl, startEmulator } from "../../src/emulator";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { policyPackDir, type PolicyPackDir } from "./support/policy-pack";
import { pulumiCommands } from "./support/pulumi-command";
import { e2eStack, repoRoot, type StackHandle } from "./support/stack";

const API_KEY = "policy-SECRET-key-5d2e";

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let control: EmulatorControl;
let pack: PolicyPackDir;
let enforcing: string;
let relaxed: string;

/** Every rule on: pinned images and pull secrets mandatory, a cap of 3 as mandatory. */
const ENFORCING = {
  "agent-image-pinned": "mandatory",
  "agent-max-agents-cap": { enforcementLevel: "mandatory", cap: 3 },
  "agent-scaling-range": "mandatory",
  "agent-private-registry-pull-secret": { enforcementLevel: "mandatory", privateRegistries: ["registry.example.com"] },
};
/** The cap only advisory, the image rules disabled: the preview goes through, with a warning. */
const RELAXED = {
  "agent-image-pinned": "disabled",
  "agent-max-agents-cap": { enforcementLevel: "advisory", cap: 3 },
  "agent-private-registry-pull-secret": "disabled",
};

/** Agents that break one rule each, and one that keeps them all. */
const AGENTS = [
  { resource: "good-bot", args: { serviceName: "good-bot", image: "registry.example.com/bot:1.4.2", imagePullSecretSet: "pull-creds", autoScaling: { minAgents: 1, maxAgents: 2 } } },
  { resource: "latest-bot", args: { serviceName: "latest-bot", image: "docker.io/acme/bot:latest" } },
  { resource: "big-bot", args: { serviceName: "big-bot", image: "docker.io/acme/bot:2", autoScaling: { minAgents: 1, maxAgents: 5 } } },
  { resource: "private-bot", args: { serviceName: "private-bot", image: "registry.example.com/private-bot:3" } },
];

function yamlProgram(): string {
  const lines = ["name: policy-yaml", "runtime: yaml", "resources:"];
  for (const { resource, args } of AGENTS) {
    lines.push(`  ${resource}:`, "    type: agent-hosting:index:Agent", "    properties:");
    for (const [key, value] of Object.entries(args)) lines.push(`      ${key}: ${JSON.stringify(value)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The violations the rules must report, with the Agent each names. */
function expectViolations(out: string, level: "mandatory" | "advisory"): void {
  expect(out).toMatch(new RegExp(`\\[${level}\\] +agent-image-pinned[\\s\\S]*Agent "latest-bot": \`image\` uses the tag \`latest\``));
  expect(out).toMatch(new RegExp(`agent-max-agents-cap[\\s\\S]*Agent "big-bot": \`autoScaling.maxAgents\` is 5, above this pack's cap of 3`));
  expect(out).toContain('Agent "private-bot": `image` comes from the private registry `registry.example.com`');
  expect(out).not.toContain('Agent "good-bot"');
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, readyAfterMs: 100 });
  control = new EmulatorControl(emulator.baseUrl);
  pack = policyPackDir("policy-pack");
  enforcing = pack.config("enforcing", ENFORCING);
  relaxed = pack.config("relaxed", RELAXED);
});

afterAll(async () => {
  await emulator?.close();
  pack?.remove();
});

describe("the Agent policy pack, pulumi preview --policy-pack", () => {
  let program: StackDir;
  let env: NodeJS.ProcessEnv;
  const cli = pulumiCommands(() => ({ cwd: program.workDir, env }));

  beforeAll(() => {
    program = stackDir("policy-yaml");
    writeFileSync(join(program.workDir, "Pulumi.yaml"), yamlProgram());
    const yamlHost = execFileSync("bash", [join(repoRoot, "scripts/pulumi-yaml.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
      .trim()
      .split("\n")
      .pop();
    // The language host and the analyzer launcher are found on PATH; the plugin is the installed one.
    const { PULUMI_IGNORE_AMBIENT_PLUGINS: _ignored, ...rest } = program.env;
    const path = (process.env["PATH"] ?? "").split(":").filter((dir) => !dir.includes("node_modules"));
    env = { ...rest, PATH: [pack.launcherDir, yamlHost, ...path].join(":") };
  });

  afterAll(() => program?.remove());

  it("a YAML program: mandatory violations stop the preview, each naming the Agent and the rule", async () => {
    for (const args of [["stack", "init", "dev"], ["config", "set", "agent-hosting:baseUrl", emulator.url], ["config", "set", "--secret", "agent-hosting:apiKey", API_KEY]]) {
      expect((await cli.run(...args)).code).toBe(0);
    }
    const { code, out } = await cli.run("preview", "--policy-pack", pack.dir, "--policy-pack-config", enforcing);
    expect(code, out).not.toBe(0);
    expectViolations(out, "mandatory");
    expect(out).toContain(`agent-hosting@v0.1.0 (local: ${pack.dir})`);
    expect(out).not.toContain(API_KEY);
  });

  it("the same program, the cap advisory and the image rules disabled: the preview goes through with a warning", async () => {
    const { code, out } = await cli.run("preview", "--policy-pack", pack.dir, "--policy-pack-config", relaxed);
    expect(code, out).toBe(0);
    expect(out).toMatch(/\[advisory\] +agent-max-agents-cap[\s\S]*Agent "big-bot": `autoScaling.maxAgents` is 5/);
    expect(out).not.toContain("agent-image-pinned");
    expect(out).not.toContain("agent-private-registry-pull-secret");
    expect((await control.listAgents()).agents).toEqual([]);
  });
});

describe("the Agent policy pack, the Automation API's preview with policyPacks", () => {
  let stack: StackHandle;

  beforeAll(() => {
    stack = e2eStack("policy-ts", { baseUrl: emulator.url, apiKey: API_KEY, program: join(repoRoot, "test/e2e/programs/review.cjs") });
  });

  afterAll(() => stack?.remove());

  it("a TypeScript program of dynamic Agents: the same violations; mandatory ones stop the preview", async () => {
    const env = { PATH: `${pack.launcherDir}:${process.env["PATH"] ?? ""}` };
    const stopped = await stack.run("preview", { params: { agents: AGENTS }, policyPacks: [pack.dir], policyPackConfigs: [enforcing], env });
    expect(stopped.ok).toBe(false);
    expectViolations(`${stopped.engineOutput}\n${stopped.error ?? ""}`, "mandatory");

    const warned = await stack.run("preview", { params: { agents: AGENTS }, policyPacks: [pack.dir], policyPackConfigs: [relaxed], env });
    expect(warned.error, warned.engineOutput).toBeUndefined();
    expect(warned.engineOutput).toMatch(/\[advisory\] +agent-max-agents-cap[\s\S]*Agent "big-bot"/);
    expect(warned.engineOutput).not.toContain(API_KEY);
    expect((await control.listAgents()).agents).toEqual([]);
  });
});
