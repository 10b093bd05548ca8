/**
 * agentHostingMocks held to the real thing: one program of several agents
 * runs under pulumi.runtime.setMocks with the mocks, and each Agent it
 * registers is then created by the dynamic provider, as the engine calls it,
 * against the emulator. The outputs must match field by field, but for ids
 * and times: a change of the provider's outputs the mocks do not follow
 * fails here.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator-fixture";
import { dynamicProvider as impl } from "../support/dynamic-provider";

const load = createRequire(__filename);
const pulumi = load("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
const ah = load("../../dist/index.js") as typeof import("../../src/index");
const testing = load("../../dist/testing/index.js") as typeof import("../../src/testing");
const { plainValue } = load("../../dist/testing/plain-inputs.js") as typeof import("../../src/testing/plain-inputs");

const SETS = { "voice-secrets": ["OPENAI_KEY", "SIP_PASSWORD"], "pull-creds": ["USERNAME", "PASSWORD"] };
const IMAGE = "registry.example.com/voice-bot:1.4.2";
const DIGEST_IMAGE = `registry.example.com/voice-bot@sha256:${"ab".repeat(32)}`;

/** The program: agents of every shape the field table allows, one of them with a secret input. */
function program(): import("@pulumi/pulumi").Resource[] {
  return [
    new ah.Agent("minimal", { serviceName: "minimal-bot", image: IMAGE }),
    new ah.Agent("full", {
      serviceName: "full-bot",
      image: IMAGE,
      nodeType: "arm",
      secretSet: "voice-secrets",
      imagePullSecretSet: "pull-creds",
      requiredSecrets: ["OPENAI_KEY"],
      autoScaling: { minAgents: 2, maxAgents: 4 },
      enableNoise: true,
      readyTimeoutSeconds: 120,
      onFailure: "rollback",
      drainSeconds: 30,
      redeployTrigger: "push-7",
    }),
    new ah.Agent("no-wait", { serviceName: "no-wait-bot", image: DIGEST_IMAGE, waitForReady: false }),
    new ah.Agent("watched", { serviceName: "watched-bot", image: IMAGE, healthCheck: { failOnLogQuery: "panic", watchSeconds: 1 } }),
    new ah.Agent("secret", { serviceName: "secret-bot", image: IMAGE, secretSet: pulumi.secret("voice-secrets") }),
  ];
}

/** What differs between any two creates of the same inputs: the ids and times the service assigns. */
const ASSIGNED = new Set(["activeDeploymentId", "desiredDeploymentId", "createdAt", "updatedAt", "serviceId"]);

/** The value with every assigned member (at any depth, secrets included) replaced by a marker of its presence. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key, ASSIGNED.has(key) || (key === "id" && typeof member === "string") ? "<assigned>" : comparable(member)]),
  );
}

interface Registered {
  name: string;
  inputs: Record<string, unknown>;
  id: string | undefined;
  state: Record<string, unknown>;
}

const emulator = useEmulator({ secretSets: SETS });
const registered: Registered[] = [];

beforeAll(async () => {
  // The emulator's images are in no registry, so the real provider runs with pinning off (vitest.config.ts's
  // AGENT_HOSTING_PIN_IMAGE_DIGESTS=false), and the mocks with the same stack default.
  const mocks = testing.agentHostingMocks({ secretSets: SETS, pinImageDigests: false });
  await pulumi.runtime.setMocks(
    {
      async newResource(args) {
        const result = await mocks.newResource(args);
        registered.push({ name: args.name, inputs: args.inputs, id: result.id, state: result.state });
        return result;
      },
      call: (args) => mocks.call(args),
    },
    "project",
    "stack",
    false,
  );
  const resources = program();
  await Promise.all(resources.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
  await Promise.all(resources.map((r) => new Promise((resolve) => (r as import("@pulumi/pulumi").CustomResource).id.apply(resolve))));
  process.env["AGENT_HOSTING_API_KEY"] = emulator.apiKey;
  process.env["AGENT_HOSTING_BASE_URL"] = emulator.url;
  await impl.configure(undefined);
});

afterAll(() => {
  delete process.env["AGENT_HOSTING_API_KEY"];
  delete process.env["AGENT_HOSTING_BASE_URL"];
});

describe("the mocks' outputs against the provider's, created at the emulator", () => {
  it("registers every agent of the program", () => {
    expect(registered.map((r) => r.name).sort()).toEqual(["full", "minimal", "no-wait", "secret", "watched"]);
  });

  it.each(["minimal", "full", "no-wait", "watched", "secret"])("%s: the same outputs, field by field, but ids and times", async (name) => {
    const mocked = registered.find((r) => r.name === name);
    if (!mocked) throw new Error(`${name} was not registered`);
    // The engine hands the dynamic provider plain values (the program's secrets listed in __secretInputs).
    const checked = await impl.check({}, plainValue(mocked.inputs) as Record<string, unknown>);
    expect(checked.failures).toEqual([]);
    const real = await impl.create(checked.inputs);
    expect(mocked.id).toBe(real.id);
    const keys = [...new Set([...Object.keys(real.outs), ...Object.keys(mocked.state)])].sort();
    for (const key of keys) {
      if (ASSIGNED.has(key)) expect(typeof mocked.state[key], key).toBe(typeof real.outs[key]);
      else expect(comparable(mocked.state[key]), key).toEqual(comparable(real.outs[key]));
    }
    // The ids the mocks derive are of the service's form, and the deployment named twice is one.
    expect(mocked.state["activeDeploymentId"]).toMatch(/^dep-[0-9a-f]{12}$/);
  });
});
