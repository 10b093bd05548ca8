/**
 * The Agent policy pack (`pulumi-agent-hosting/policy`) under the real CLI,
 * from its own directory as a user keeps it: `pulumi preview --policy-pack
 * DIR --policy-pack-config FILE` of a Pulumi YAML program (native Agents),
 * and the same pack given to the Automation API's preview of a TypeScript
 * program (dynamic Agents). A violation names the Agent and the rule; a
 * mandatory one stops the preview, an advisory one only warns, a disabled
 * one says nothing. Nothing reaches the service.
 *
 * The engine stops at the first resource a mandatory policy (or the
 * provider's check) refuses, and which resources it analyzed by then depends
 * on the order they registered in; so each preview that stops has one such
 * Agent, and every rule's message is shown by a preview where the rules are
 * advisory. Every Agent but keep-bot sets `onFailure: "rollback"`, so the
 * rollback rule, mandatory in the mandatory and relaxed configs, lets them
 * through and stops only keep-bot's preview. secrets-bot names a
 * `secretSet` without `requiredSecrets`, which the advisory
 * agent-secret-set-required-secrets names.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { useEmulator } from "../support/emulator-fixture";
import { policyPackDir, type PolicyPackDir } from "./support/policy-pack";
import { initStackWithConfig, pulumiCommands } from "./support/pulumi-command";
import { e2eStack, repoRoot, type StackHandle } from "./support/stack";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "policy-SECRET-key-5d2e";

// The sets the Agents name, for a preview that checks that a set exists.
const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 100, secretSets: { "voice-secrets": ["TOKEN"], "pull-creds": ["USERNAME", "PASSWORD"] } });
let pack: PolicyPackDir;
let configs: Record<"mandatory" | "advisory" | "relaxed", string>;

type Level = "mandatory" | "advisory" | "disabled";
/** The pack's rules, each with the options this test gives it. */
const RULE_OPTIONS: Record<string, Record<string, unknown>> = {
  "agent-image-pinned": {},
  "agent-max-agents-cap": { cap: 3 },
  "agent-scaling-range": {},
  "agent-private-registry-pull-secret": { privateRegistries: ["registry.example.com"] },
  "agent-on-failure-rollback": {},
  "agent-secret-set-required-secrets": {},
};

/** A `--policy-pack-config` document: each rule named at its level, with its options unless it is disabled or has none. */
function packConfig(levels: Record<string, Level>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(levels).map(([rule, level]) => {
      const options = RULE_OPTIONS[rule] ?? {};
      return [rule, level === "disabled" || Object.keys(options).length === 0 ? level : { enforcementLevel: level, ...options }];
    }),
  );
}

const everyRule = (level: Level): Record<string, Level> => Object.fromEntries(Object.keys(RULE_OPTIONS).map((rule) => [rule, level]));

const CONFIGS = {
  /** Every rule mandatory, a cap of 3. */
  mandatory: packConfig(everyRule("mandatory")),
  /** Every rule advisory: the preview goes through and lists every violation. */
  advisory: packConfig(everyRule("advisory")),
  /** The image rules disabled, the cap advisory, rollback required. */
  relaxed: packConfig({
    "agent-image-pinned": "disabled",
    "agent-max-agents-cap": "advisory",
    "agent-private-registry-pull-secret": "disabled",
    "agent-on-failure-rollback": "mandatory",
  }),
};

interface AgentSpec {
  resource: string;
  args: Record<string, unknown>;
  secret?: string[];
}

const ROLLBACK = { onFailure: "rollback" };
const GOOD: AgentSpec = {
  resource: "good-bot",
  args: { serviceName: "good-bot", image: "registry.example.com/bot:1.4.2", imagePullSecretSet: "pull-creds", autoScaling: { minAgents: 1, maxAgents: 2 }, ...ROLLBACK },
};
const LATEST: AgentSpec = { resource: "latest-bot", args: { serviceName: "latest-bot", image: "docker.io/acme/bot:latest", ...ROLLBACK } };
const BIG: AgentSpec = { resource: "big-bot", args: { serviceName: "big-bot", image: "docker.io/acme/bot:2", autoScaling: { minAgents: 1, maxAgents: 5 }, ...ROLLBACK } };
const PRIVATE: AgentSpec = { resource: "private-bot", args: { serviceName: "private-bot", image: "registry.example.com/private-bot:3", ...ROLLBACK } };
/** minAgents above maxAgents: the provider's check refuses it too; the engine runs the policies on it first. */
const INVERTED: AgentSpec = {
  resource: "inverted-bot",
  args: { serviceName: "inverted-bot", image: "docker.io/acme/bot:2", autoScaling: { minAgents: 4, maxAgents: 2 }, ...ROLLBACK },
};
/** A `secretSet` without `requiredSecrets`. */
const SECRETS: AgentSpec = { resource: "secrets-bot", args: { serviceName: "secrets-bot", image: "docker.io/acme/bot:2", secretSet: "voice-secrets", ...ROLLBACK } };
/** No `onFailure`: the default "keep". */
const KEEP: AgentSpec = { resource: "keep-bot", args: { serviceName: "keep-bot", image: "docker.io/acme/bot:2" } };
const ALL = [GOOD, LATEST, BIG, PRIVATE, SECRETS];

const MESSAGES = {
  pinned: /\[(mandatory|advisory)\] +agent-image-pinned +\([^)]*: latest-bot\)[\s\S]*?Agent "latest-bot": `image` uses the tag `latest`, which moves/,
  cap: /\[advisory\] +agent-max-agents-cap +\([^)]*: big-bot\)[\s\S]*?Agent "big-bot": `autoScaling.maxAgents` is 5, above this pack's cap of 3/,
  pullSecret: /\[advisory\] +agent-private-registry-pull-secret +\([^)]*: private-bot\)[\s\S]*?Agent "private-bot": `image` comes from the private registry `registry.example.com`/,
  rollback: /\[mandatory\] +agent-on-failure-rollback +\([^)]*: keep-bot\)[\s\S]*?Agent "keep-bot": `onFailure` is "keep" \(its default when not set\)/,
  requiredSecrets:
    /\[advisory\] +agent-secret-set-required-secrets +\([^)]*: secrets-bot\)[\s\S]*?Agent "secrets-bot": `secretSet` is set, but `requiredSecrets` does not list the fields the agent needs from it/,
  scaling: /agent-scaling-range +\([^)]*: inverted-bot\)[\s\S]*?Agent "inverted-bot": `autoScaling.minAgents` \(4\) is above `autoScaling.maxAgents` \(2\)/,
};

function yamlProgram(agents: readonly AgentSpec[]): string {
  const lines = ["name: policy-yaml", "runtime: yaml", "resources:"];
  for (const { resource, args } of agents) {
    lines.push(`  ${resource}:`, "    type: agent-hosting:index:Agent", "    properties:");
    for (const [key, value] of Object.entries(args)) lines.push(`      ${key}: ${JSON.stringify(value)}`);
  }
  return `${lines.join("\n")}\n`;
}

type Preview = (agents: readonly AgentSpec[], config: keyof typeof CONFIGS) => Promise<{ stopped: boolean; out: string }>;

/** The same five previews, whichever way the program runs. */
function checksThePack(preview: () => Preview): void {
  it("every rule mandatory: a `:latest` image stops the preview, naming the Agent and the rule", async () => {
    const { stopped, out } = await preview()([GOOD, LATEST], "mandatory");
    expect(stopped, out).toBe(true);
    expect(out).toMatch(/\[mandatory\] +agent-image-pinned/);
    expect(out).toMatch(MESSAGES.pinned);
    expect(out).toContain(`agent-hosting@v0.1.0`);
    expect(out).not.toContain('Agent "good-bot"');
  });

  it("every rule advisory: the preview goes through and warns of each violation, naming each Agent", async () => {
    const { stopped, out } = await preview()(ALL, "advisory");
    expect(stopped, out).toBe(false);
    for (const message of [MESSAGES.pinned, MESSAGES.cap, MESSAGES.pullSecret, MESSAGES.requiredSecrets]) expect(out).toMatch(message);
    expect(out).not.toContain('Agent "good-bot"');
  });

  it("the image rules disabled: they say nothing; the advisory cap still warns; rollback required passes Agents that set it", async () => {
    const { stopped, out } = await preview()(ALL, "relaxed");
    expect(stopped, out).toBe(false);
    expect(out).toMatch(MESSAGES.cap);
    expect(out).not.toContain("agent-image-pinned");
    expect(out).not.toContain("agent-private-registry-pull-secret");
    expect(out).not.toContain("agent-on-failure-rollback");
  });

  it("rollback required: an Agent without onFailure (the default keep) stops the preview, naming the Agent and the rule", async () => {
    const { stopped, out } = await preview()([GOOD, KEEP], "relaxed");
    expect(stopped, out).toBe(true);
    expect(out).toMatch(MESSAGES.rollback);
    expect(out).not.toContain('Agent "good-bot"');
    expect((await fx.control.listAgents()).agents).toEqual([]);
  });

  it("minAgents above maxAgents: the scaling rule names it, beside the provider's own refusal", async () => {
    const { stopped, out } = await preview()([GOOD, INVERTED], "advisory");
    expect(stopped, out).toBe(true);
    expect(out).toMatch(MESSAGES.scaling);
    expect(out).toContain("minAgents must be ≤ maxAgents");
    expect(out).not.toContain(API_KEY);
    expect((await fx.control.listAgents()).agents).toEqual([]);
  });
}

beforeAll(() => {
  pack = policyPackDir("policy-pack");
  configs = { mandatory: pack.config("mandatory", CONFIGS.mandatory), advisory: pack.config("advisory", CONFIGS.advisory), relaxed: pack.config("relaxed", CONFIGS.relaxed) };
});

afterAll(() => pack?.remove());

describe("the Agent policy pack on a YAML program: pulumi preview --policy-pack DIR --policy-pack-config FILE", () => {
  let program: StackDir;
  let env: NodeJS.ProcessEnv;
  const cli = pulumiCommands(() => ({ cwd: program.workDir, env }));

  beforeAll(async () => {
    program = stackDir("policy-yaml");
    writeFileSync(join(program.workDir, "Pulumi.yaml"), yamlProgram([GOOD]));
    // The analyzer launcher is found on PATH, before the YAML language host; the plugin is the installed one.
    const yamlEnv = yamlProgramEnv(program.env);
    env = { ...yamlEnv, PATH: `${pack.launcherDir}:${yamlEnv["PATH"] ?? ""}` };
    await initStackWithConfig(cli, fx.emulator);
  });

  afterAll(() => program?.remove());

  checksThePack(() => async (agents, config) => {
    writeFileSync(join(program.workDir, "Pulumi.yaml"), yamlProgram(agents));
    const { code, out } = await cli.run("preview", "--policy-pack", pack.dir, "--policy-pack-config", configs[config]);
    return { stopped: code !== 0, out };
  });
});

describe("the Agent policy pack on a TypeScript program: the Automation API's preview with policyPacks", () => {
  let stack: StackHandle;
  const env = () => ({ PATH: `${pack.launcherDir}:${process.env["PATH"] ?? ""}` });
  const preview: Preview = async (agents, config) => {
    const result = await stack.run("preview", { params: { agents }, policyPacks: [pack.dir], policyPackConfigs: [configs[config]], env: env() });
    return { stopped: !result.ok, out: `${result.engineOutput}\n${result.error ?? ""}` };
  };

  beforeAll(() => {
    stack = e2eStack("policy-ts", { baseUrl: fx.emulator.url, apiKey: API_KEY, program: join(repoRoot, "test/e2e/programs/review.cjs") });
  });

  afterAll(() => stack?.remove());

  checksThePack(() => preview);

  it("an image marked secret: the violation names the Agent and the registry, never the image", async () => {
    const secretImage = "registry.example.com/secret-bot:token-4411";
    const secretBot: AgentSpec = { resource: "secret-bot", args: { serviceName: "secret-bot", image: secretImage }, secret: ["image"] };
    const { stopped, out } = await preview([GOOD, secretBot], "mandatory");
    expect(stopped, out).toBe(true);
    expect(out).toContain('Agent "secret-bot": `image` comes from the private registry `registry.example.com`');
    expect(out).not.toContain(secretImage);
  });
});
