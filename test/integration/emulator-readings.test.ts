/**
 * The emulator's other readings of the service document: each switch on its
 * own over the default reading, the umbrella `reading: "other"`, a switch
 * turned off over it, and the bin's flags that set them. Raw HTTP only, as
 * any client would see the answers.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseEmulatorArgs } from "../../src/emulator/args";
import { EXTRA_FIELDS, OMITTED_FIELDS, READINGS, type EmulatorOptions } from "../../src/emulator";
import { startEmu, type Emu } from "../support/emulator-fixture";

const running: Emu[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

interface Answer {
  status: number;
  text: string;
  contentType: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are arbitrary JSON
  json: any;
}

interface Api {
  call(method: string, path: string, body?: unknown): Promise<Answer>;
  create(name: string, extra?: Record<string, unknown>): Promise<Answer>;
  get(name: string): Promise<Answer>;
}

/** An emulator whose deployments are ready at once (readyAfterMs 0), so flags depend on polls only. */
async function emulatorWith(options: EmulatorOptions): Promise<Api> {
  const emulator = await startEmu({ readyAfterMs: 0, secretSets: { "voice-secrets": ["A"], "pull-creds": ["D"] }, ...options });
  running.push(emulator);
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${emulator.apiKey}`, "content-type": "application/json" } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(`${emulator.url}${path}`, init);
    const text = await response.text();
    return { status: response.status, text, contentType: response.headers.get("content-type"), json: text === "" ? undefined : JSON.parse(text) };
  };
  return {
    call,
    create: (name, extra = {}) => call("POST", "/agents", { serviceName: name, image: "registry.example.com/bot:1", ...extra }),
    get: (name) => call("GET", `/agents/${name}`),
  };
}

/** The value at a dotted path, or undefined. */
function at(json: unknown, path: string): unknown {
  let value = json;
  for (const key of path.split(".")) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}
const has = (json: unknown, path: string): boolean => {
  const parent = path.includes(".") ? at(json, path.slice(0, path.lastIndexOf("."))) : json;
  return typeof parent === "object" && parent !== null && Object.hasOwn(parent, path.slice(path.lastIndexOf(".") + 1));
};

/**
 * The fields a client relies on, with the values an agent of emulatorWith has: created with the default
 * scaling, and ready at once (readyAfterMs 0, the flags together).
 */
function expectReliedFields(agent: unknown, name: string): void {
  expect(at(agent, "name")).toBe(name);
  expect(at(agent, "activeDeploymentId")).toMatch(/^dep-[0-9a-f]{12}$/);
  expect(at(agent, "ready")).toBe(true);
  expect(at(agent, "activeDeploymentReady")).toBe(true);
  expect(at(agent, "autoScaling")).toEqual({ minReplicas: 1, maxReplicas: 1 });
}

const flags = (a: Answer) => [a.json.ready, a.json.activeDeploymentReady];

describe("the default reading", () => {
  it("answers create with 200 and its deployment, delete with 200 and a body, ready flags together, documented fields only", async () => {
    const api = await emulatorWith({});
    const created = await api.create("plain-bot");
    expect(created.status).toBe(200);
    expect(created.json.deployment.id).toBe(created.json.activeDeploymentId);
    for (const path of OMITTED_FIELDS) expect(has(created.json, path), path).toBe(true);
    for (const path of EXTRA_FIELDS) expect(has(created.json, path), path).toBe(false);
    expect(flags(await api.get("plain-bot"))).toEqual([true, true]);
    const deleted = await api.call("DELETE", "/agents/plain-bot");
    expect([deleted.status, deleted.json]).toEqual([200, { status: "OK" }]);
  });
});

describe("one switch at a time", () => {
  it("createStatus 201: the create is answered 201, with the agent", async () => {
    const api = await emulatorWith({ createStatus: 201 });
    const created = await api.create("created-bot");
    expect(created.status).toBe(201);
    expectReliedFields(created.json, "created-bot");
    expect(created.json.deployment).not.toBeNull();
  });

  it("deleteStatus 204: the delete is answered 204 with no body, and the agent is gone", async () => {
    const api = await emulatorWith({ deleteStatus: 204 });
    await api.create("gone-bot");
    const deleted = await api.call("DELETE", "/agents/gone-bot");
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect(deleted.contentType).toBeNull();
    expect((await api.get("gone-bot")).status).toBe(404);
    expect((await api.call("DELETE", "/agents/gone-bot")).status).toBe(404);
  });

  it("deploymentNullOnCreate: the create answer has deployment null, later GETs have it", async () => {
    const api = await emulatorWith({ deploymentNullOnCreate: true });
    const created = await api.create("late-bot");
    expect(created.status).toBe(200);
    expect(created.json).toHaveProperty("deployment", null);
    expectReliedFields(created.json, "late-bot");
    const got = await api.get("late-bot");
    expect(got.json.deployment.id).toBe(created.json.activeDeploymentId);
    expect(got.json.deployment.manifest.spec.image).toBe("registry.example.com/bot:1");
    // An update answers with the deployment: only the create's answer is concerned.
    const updated = await api.call("POST", "/agents/late-bot", { image: "registry.example.com/bot:2" });
    expect(updated.json.deployment.manifest.spec.image).toBe("registry.example.com/bot:2");
  });

  it("extraFields: fields the document never names, in the agent, the deployment and the manifest", async () => {
    const api = await emulatorWith({ extraFields: true });
    const created = await api.create("extra-bot");
    const got = await api.get("extra-bot");
    for (const answer of [created, got]) {
      for (const path of EXTRA_FIELDS) expect(has(answer.json, path), path).toBe(true);
      for (const path of OMITTED_FIELDS) expect(has(answer.json, path), path).toBe(true);
      expectReliedFields(answer.json, "extra-bot");
    }
    expect(got.json.region).toBe("emulator-local-1");
    expect(got.json.deployment.manifest.metadata.labels).toEqual({ "agents.emulator.local/agent": "extra-bot" });
    expect(got.json.deployment.revision).toBe(1);
    expect(got.json.deployment.phase).toBe("Running");
  });

  it("omitOptionalFields: the listed fields are absent, the relied-on ones present", async () => {
    const api = await emulatorWith({ omitOptionalFields: true });
    const created = await api.create("lean-bot", { secretSet: "voice-secrets" });
    const got = await api.get("lean-bot");
    for (const answer of [created, got]) {
      for (const path of OMITTED_FIELDS) expect(has(answer.json, path), path).toBe(false);
      expectReliedFields(answer.json, "lean-bot");
      expect(answer.json.deployment.manifest.spec).toMatchObject({
        image: "registry.example.com/bot:1",
        platformNodeType: "arm",
        envFromSecretNames: ["voice-secrets"],
        noiseModels: { enabled: false },
      });
      expect(answer.json.deployment.manifest.metadata).toEqual({ name: "lean-bot" });
    }
  });

  it("readyFlagsApart ready:2: ready first, activeDeploymentReady two polls later", async () => {
    const api = await emulatorWith({ readyFlagsApart: { first: "ready", polls: 2 } });
    const created = await api.create("apart-bot");
    expect(flags(created)).toEqual([true, false]);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(flags(await api.get("apart-bot")));
    expect(seen).toEqual([
      [true, false],
      [true, false],
      [true, true],
      [true, true],
    ]);
    // A new deployment starts over; a scaling-only update keeps the deployment and its flags.
    const updated = await api.call("POST", "/agents/apart-bot", { image: "registry.example.com/bot:2" });
    expect(updated.json.activeDeploymentId).not.toBe(created.json.activeDeploymentId);
    expect(flags(await api.get("apart-bot"))).toEqual([true, false]);
    expect(flags(await api.get("apart-bot"))).toEqual([true, false]);
    expect(flags(await api.get("apart-bot"))).toEqual([true, true]);
    await api.call("POST", "/agents/apart-bot", { image: "registry.example.com/bot:2", autoScaling: { minAgents: 1, maxAgents: 3 } });
    expect(flags(await api.get("apart-bot"))).toEqual([true, true]);
  });

  it("readyFlagsApart activeDeploymentReady:1: the other way round", async () => {
    const api = await emulatorWith({ readyFlagsApart: { first: "activeDeploymentReady", polls: 1 } });
    await api.create("other-way-bot");
    expect(flags(await api.get("other-way-bot"))).toEqual([false, true]);
    expect(flags(await api.get("other-way-bot"))).toEqual([true, true]);
  });

  it("readyFlagsApart: neither flag before the deployment's ready time, nor ever for an image that fails", async () => {
    const api = await emulatorWith({ readyAfterMs: 3_600_000, readyFlagsApart: { first: "ready", polls: 1 } });
    await api.create("slow-bot");
    await api.create("broken-bot", { image: "registry.example.com/bot:fail" });
    for (let i = 0; i < 3; i++) {
      expect(flags(await api.get("slow-bot"))).toEqual([false, false]);
      expect(flags(await api.get("broken-bot"))).toEqual([false, false]);
    }
  });

  it("getOutageAfterCreate { requests: 3 }: the agent's first three GETs answer 503, then 200; logs and other agents are not concerned", async () => {
    const api = await emulatorWith({ getOutageAfterCreate: { requests: 3 } });
    await api.create("first-bot");
    for (let i = 0; i < 3; i++) await api.get("first-bot");
    await api.create("outage-bot");
    expect((await api.get("first-bot")).status).toBe(200);
    expect((await api.call("GET", "/agents/outage-bot/logs")).status).toBe(200);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await api.get("outage-bot")).status);
    expect(statuses).toEqual([503, 503, 503, 200, 200]);
    expect((await api.get("no-such-bot")).status).toBe(404);
  });

  it("getOutageAfterCreate: a 503 is the service's error shape; a deleted and re-created agent starts a new outage", async () => {
    const api = await emulatorWith({ getOutageAfterCreate: { requests: 1 } });
    await api.create("again-bot");
    const refused = await api.get("again-bot");
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({ error: "the agent is being provisioned; try again", code: "SERVICE_UNAVAILABLE" });
    expect((await api.get("again-bot")).status).toBe(200);
    await api.call("DELETE", "/agents/again-bot");
    await api.create("again-bot");
    expect((await api.get("again-bot")).status).toBe(503);
    expect((await api.get("again-bot")).status).toBe(200);
  });

  it("getOutageAfterCreate { ms }: GETs answer 503 until the time has passed, then 200", async () => {
    const api = await emulatorWith({ getOutageAfterCreate: { ms: 300 } });
    await api.create("timed-bot");
    const statuses: number[] = [];
    while (statuses.at(-1) !== 200) {
      statuses.push((await api.get("timed-bot")).status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(statuses[0]).toBe(503);
    expect(new Set(statuses)).toEqual(new Set([503, 200]));
  });

  it("updateMerges: fields left out keep their value, null clears, and image may be left out", async () => {
    const api = await emulatorWith({ updateMerges: true });
    await api.create("merge-bot", {
      secretSet: "voice-secrets",
      imagePullSecretSet: "pull-creds",
      autoScaling: { minAgents: 2, maxAgents: 5 },
      enableNoise: true,
    });
    const bumped = await api.call("POST", "/agents/merge-bot", { image: "registry.example.com/bot:2" });
    expect(bumped.status).toBe(200);
    expect(bumped.json.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 5 });
    expect(bumped.json.deployment.manifest.spec).toMatchObject({
      image: "registry.example.com/bot:2",
      envFromSecretNames: ["voice-secrets"],
      imagePullSecretNames: ["pull-creds"],
      noiseModels: { enabled: true },
      autoScaling: { minReplicas: 2, maxReplicas: 5 },
    });
    const cleared = await api.call("POST", "/agents/merge-bot", { secretSet: null, autoScaling: null });
    expect(cleared.status).toBe(200);
    expect(cleared.json.autoScaling).toEqual({ minReplicas: 1, maxReplicas: 1 });
    expect(cleared.json.deployment.manifest.spec).toMatchObject({
      image: "registry.example.com/bot:2",
      envFromSecretNames: [],
      imagePullSecretNames: ["pull-creds"],
      noiseModels: { enabled: true },
    });
    const rules = await api.call("POST", "/agents/merge-bot", { nodeType: "x86", serviceName: "x" });
    expect(rules.status).toBe(400);
    expect(rules.json.error).toContain("nodeType:");
    expect(rules.json.error).toContain("serviceName:");
  });

  it("without updateMerges the update body replaces the spec, and image is required", async () => {
    const api = await emulatorWith({});
    await api.create("replace-bot", { secretSet: "voice-secrets", autoScaling: { minAgents: 2, maxAgents: 5 }, enableNoise: true });
    const replaced = await api.call("POST", "/agents/replace-bot", { image: "registry.example.com/bot:2" });
    expect(replaced.json.autoScaling).toEqual({ minReplicas: 1, maxReplicas: 1 });
    expect(replaced.json.deployment.manifest.spec).toMatchObject({ envFromSecretNames: [], noiseModels: { enabled: false } });
    const noImage = await api.call("POST", "/agents/replace-bot", { enableNoise: true });
    expect(noImage.status).toBe(400);
    expect(noImage.json.error).toContain("image: is required");
    // null on an optional field means "none" in either reading, so a client may always clear that way.
    await api.call("POST", "/agents/replace-bot", { image: "registry.example.com/bot:3", secretSet: "voice-secrets" });
    const nulls = await api.call("POST", "/agents/replace-bot", { image: "registry.example.com/bot:3", secretSet: null, autoScaling: null, enableNoise: null });
    expect(nulls.status).toBe(200);
    expect(nulls.json.deployment.manifest.spec).toMatchObject({ envFromSecretNames: [], noiseModels: { enabled: false } });
  });
});

describe('the umbrella reading "other"', () => {
  it("turns every switch on", () => {
    expect(READINGS.other).toEqual({
      createStatus: 201,
      deleteStatus: 204,
      deploymentNullOnCreate: true,
      extraFields: true,
      omitOptionalFields: true,
      readyFlagsApart: { first: "ready", polls: 2 },
      getOutageAfterCreate: { requests: 4 },
      updateMerges: true,
    });
  });

  it("answers a whole lifecycle the other way", async () => {
    const api = await emulatorWith({ reading: "other" });
    const created = await api.create("other-bot", { autoScaling: { minAgents: 2, maxAgents: 5 } });
    expect(created.status).toBe(201);
    expect(created.json.deployment).toBeNull();
    for (const path of ["region", "plan"]) expect(has(created.json, path), path).toBe(true);
    for (const path of ["updatedAt", "activeSessionCount"]) expect(has(created.json, path), path).toBe(false);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.get("other-bot")).status);
    expect(statuses).toEqual([503, 503, 503, 503]);
    const polls = [];
    for (let i = 0; i < 3; i++) polls.push(await api.get("other-bot"));
    expect(polls.map(flags)).toEqual([
      [true, false],
      [true, false],
      [true, true],
    ]);
    const got = polls[2] as Answer;
    for (const path of EXTRA_FIELDS) expect(has(got.json, path), path).toBe(true);
    for (const path of OMITTED_FIELDS) expect(has(got.json, path), path).toBe(false);
    const updated = await api.call("POST", "/agents/other-bot", { image: "registry.example.com/bot:2" });
    expect(updated.status).toBe(200);
    expect(updated.json.autoScaling).toEqual({ minReplicas: 2, maxReplicas: 5 });
    const deleted = await api.call("DELETE", "/agents/other-bot");
    expect([deleted.status, deleted.text]).toEqual([204, ""]);
  });

  it("a switch given on its own overrides the umbrella", async () => {
    const api = await emulatorWith({ reading: "other", createStatus: 200, getOutageAfterCreate: null, readyFlagsApart: null, updateMerges: false });
    const created = await api.create("mixed-bot");
    expect(created.status).toBe(200);
    expect(created.json.deployment).toBeNull();
    const got = await api.get("mixed-bot");
    expect(got.status).toBe(200);
    expect(flags(got)).toEqual([true, true]);
    expect((await api.call("POST", "/agents/mixed-bot", { enableNoise: true })).status).toBe(400);
  });

  it("refuses switches it cannot serve", async () => {
    await expect(startEmu({ readyFlagsApart: { first: "ready", polls: 0 } })).rejects.toThrow(/readyFlagsApart/);
    await expect(startEmu({ getOutageAfterCreate: { requests: 0 } })).rejects.toThrow(/getOutageAfterCreate/);
    await expect(startEmu({ reading: "third" as "other" })).rejects.toThrow(/reading/);
  });
});

describe("the bin's flags", () => {
  const optionsOf = (argv: string[]): EmulatorOptions => {
    const parsed = parseEmulatorArgs(argv);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.options;
  };

  it("map to the startEmulator options", () => {
    expect(optionsOf(["--reading", "other"])).toMatchObject({ reading: "other" });
    expect(
      optionsOf([
        "--create-status",
        "201",
        "--delete-status",
        "204",
        "--deployment-null-on-create",
        "--extra-fields",
        "--omit-optional-fields",
        "--update-merges",
        "--ready-flags-apart",
        "activeDeploymentReady:3",
        "--get-outage-after-create",
        "1500ms",
      ]),
    ).toMatchObject({
      createStatus: 201,
      deleteStatus: 204,
      deploymentNullOnCreate: true,
      extraFields: true,
      omitOptionalFields: true,
      updateMerges: true,
      readyFlagsApart: { first: "activeDeploymentReady", polls: 3 },
      getOutageAfterCreate: { ms: 1500 },
    });
    expect(optionsOf(["--get-outage-after-create", "4"]).getOutageAfterCreate).toEqual({ requests: 4 });
    const off = optionsOf(["--reading", "other", "--no-update-merges", "--no-extra-fields", "--ready-flags-apart", "off", "--get-outage-after-create", "off"]);
    expect(off).toMatchObject({ reading: "other", updateMerges: false, extraFields: false, readyFlagsApart: null, getOutageAfterCreate: null });
    expect(optionsOf([])).not.toHaveProperty("reading");
  });

  it.each([
    [["--reading", "mine"], "--reading"],
    [["--create-status", "202"], "--create-status"],
    [["--delete-status", "200x"], "--delete-status"],
    [["--ready-flags-apart", "ready"], "--ready-flags-apart"],
    [["--ready-flags-apart", "ready:0"], "--ready-flags-apart"],
    [["--get-outage-after-create", "-1"], "--get-outage-after-create"],
    [["--get-outage-after-create", "3s"], "--get-outage-after-create"],
  ])("refuse %j with a message naming the flag", (argv, flag) => {
    const parsed = parseEmulatorArgs(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(flag);
  });

  it("--reading other --no-update-merges serves the other reading with replacing updates", async () => {
    const api = await emulatorWith(optionsOf(["--port", "0", "--reading", "other", "--no-update-merges", "--get-outage-after-create", "off"]));
    expect((await api.create("flag-bot", { enableNoise: true })).status).toBe(201);
    const updated = await api.call("POST", "/agents/flag-bot", { image: "registry.example.com/bot:2" });
    expect(updated.json.deployment.manifest.spec.noiseModels).toEqual({ enabled: false });
  });
});
