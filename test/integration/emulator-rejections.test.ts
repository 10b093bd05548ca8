/**
 * Every way the emulator refuses a request: 401 (no key, wrong key, another
 * scheme; the key never echoed), 400 for each validation rule and for bodies
 * it cannot read, 404 for unknown agents, sets and routes, 409 for a taken
 * name, and malformed paths that must not crash it.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentHostingClient } from "../../src/client/client";
import { AuthenticationError, BadRequestError, ConflictError, NotFoundError } from "../../src/client/errors";
import { errorBodySchema } from "../../src/client/schemas";
import { MAX_BODY_BYTES } from "../../src/emulator";
import { API_KEY } from "../support/fixtures";
import { startEmu, type Emu, type Raw } from "../support/emulator-fixture";
import { documented } from "../support/documented-agent";

let emu: Emu;
let client: AgentHostingClient;

beforeAll(async () => {
  emu = await startEmu();
  client = emu.newClient({ maxRetries: 0 });
});
afterAll(async () => emu?.close());

function expectError(r: Raw, status: number, code: string): string {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  const body = errorBodySchema.parse(r.json);
  expect(Object.keys(r.json).sort()).toEqual(["code", "error"]);
  expect(body.code).toBe(code);
  expect(body.error.length).toBeGreaterThan(0);
  return body.error;
}

/** A raw call of a route written "METHOD /path". */
function call(route: string): Promise<Raw> {
  const [method, path] = route.split(" ") as [string, string];
  return emu.raw(method, path);
}

/** The server still answers a plain authenticated call. */
async function expectAlive(): Promise<void> {
  const r = await emu.raw("GET", "/v1/secrets/voice-secrets");
  expect(r.status).toBe(200);
}

describe("401 UNAUTHORIZED", () => {
  const paths: [string, string][] = [
    ["POST", "/v1/agents"],
    ["GET", "/v1/agents/some-bot"],
    ["POST", "/v1/agents/some-bot"],
    ["DELETE", "/v1/agents/some-bot"],
    ["GET", "/v1/agents/some-bot/logs"],
    ["GET", "/v1/secrets/voice-secrets"],
    ["GET", "/v1/no-such-route"],
  ];
  const bodyFor = (method: string) => (method === "POST" ? { json: { serviceName: "some-bot", image: "bot:1" } } : {});

  it.each(paths)("%s %s without the header", async (method, path) => {
    expectError(await emu.raw(method, path, { ...bodyFor(method), authorization: null }), 401, "UNAUTHORIZED");
  });

  it.each(paths)("%s %s with a wrong key, which is not echoed", async (method, path) => {
    const wrong = "wrong-key-SHOULD-NOT-LEAK-42";
    const message = expectError(await emu.raw(method, path, { ...bodyFor(method), authorization: `Bearer ${wrong}` }), 401, "UNAUTHORIZED");
    expect(message).not.toContain(wrong);
    expect(message).not.toContain(API_KEY);
  });

  it.each([
    ["a wrong key", "Bearer k-WRONG-987654"],
    ["the key with a non-Bearer scheme", `Basic ${API_KEY}`],
    ["the key with a Token scheme", `Token ${API_KEY}`],
    ["the key with a lower-case bearer", `bearer ${API_KEY}`],
    ["the key after two spaces", `Bearer  ${API_KEY}`],
    ["the key alone", API_KEY],
    ["Bearer and nothing", "Bearer "],
    ["Bearer without a space", "Bearer"],
    ["the key with a suffix", `Bearer ${API_KEY}x`],
    ["a prefix of the key", `Bearer ${API_KEY.slice(0, -1)}`],
  ])("with %s, and the key sent is never echoed", async (_label, authorization) => {
    const r = await emu.raw("GET", "/v1/secrets/voice-secrets", { authorization });
    expectError(r, 401, "UNAUTHORIZED");
    expect(r.text).not.toContain("SECRET");
    expect(r.text).not.toContain("k-WRONG");
    expect(r.text).not.toContain("WRONG-987654");
  });

  it("does not create an agent for an unauthenticated POST", async () => {
    const r = await emu.raw("POST", "/v1/agents", { json: { serviceName: "sneaky-bot", image: "bot:1" }, authorization: "Bearer nope" });
    expectError(r, 401, "UNAUTHORIZED");
    expect((await emu.raw("GET", "/v1/agents/sneaky-bot")).status).toBe(404);
  });

  it("is an AuthenticationError through a client with the wrong key, whose message holds no key", async () => {
    const wrong = emu.newClient({ apiKey: "k-OTHER-555", maxRetries: 0 });
    const error = await wrong.getSecretSet("voice-secrets").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).code).toBe("UNAUTHORIZED");
    expect(JSON.stringify(error)).not.toContain("k-OTHER-555");
    expect(String(error)).not.toContain("k-OTHER-555");
  });
});

describe("400 GENERIC_BAD_REQUEST on create: one rule at a time", () => {
  const valid = { serviceName: "valid-bot", image: "registry.example.com/bot:1" };
  type RuleCase = [label: string, change: Record<string, unknown>, properties: string | string[]];
  /** Cases that set `field` to each value; the label starts with the field's name. */
  const values = (field: string, cases: [label: string, value: unknown][]): RuleCase[] =>
    cases.map(([label, value]) => [`${field} ${label}`, { [field]: value }, field]);
  const scaling = (label: string, autoScaling: unknown, properties: string | string[]): RuleCase => [`autoScaling ${label}`, { autoScaling }, properties];
  const cases: RuleCase[] = [
    ...values("serviceName", [
      ["with uppercase", "Voice-Bot"],
      ["with an underscore", "voice_bot"],
      ["starting with a hyphen", "-voice"],
      ["ending with a hyphen", "voice-"],
      ["with a dot", "voice.bot"],
      ["empty", ""],
      ["of 55 characters", "a".repeat(55)],
      ["of 64 characters", "a".repeat(64)],
      ["not a string", 42],
    ]),
    ...values("image", [
      ["with an uppercase path", "registry.example.com/Bot:1"],
      ["with an empty path component", "registry.example.com:5000//bot:1"],
      ["with an empty tag", "bot:"],
      ["with whitespace", "bot :1"],
      ["with a bad digest", "bot@sha256:1234"],
    ]),
    ...values("nodeType", [
      ["other than arm", "x86"],
      ["ARM in uppercase", "ARM"],
    ]),
    ...values("secretSet", [
      ["of 2 characters", "ab"],
      ["of 64 characters", "a".repeat(64)],
      ["with uppercase", "Voice-Secrets"],
      ["with an underscore", "voice_secrets"],
    ]),
    ...values("imagePullSecretSet", [
      ["of 2 characters", "ab"],
      ["with uppercase", "Pull"],
    ]),
    scaling("min > max", { minAgents: 3, maxAgents: 2 }, "autoScaling.minAgents"),
    scaling("negative minAgents", { minAgents: -1, maxAgents: 2 }, "autoScaling.minAgents"),
    scaling("maxAgents 0", { minAgents: 0, maxAgents: 0 }, "autoScaling.maxAgents"),
    scaling("non-integer", { minAgents: 1.5, maxAgents: 2 }, "autoScaling.minAgents"),
    scaling("numbers as strings", { minAgents: "1", maxAgents: "2" }, "autoScaling.minAgents"),
    scaling("neither bound an integer", { minAgents: 1.5, maxAgents: "2" }, ["autoScaling.minAgents", "autoScaling.maxAgents"]),
    scaling("missing maxAgents", { minAgents: 1 }, "autoScaling.maxAgents"),
    scaling("with an unknown key", { minAgents: 1, maxAgents: 2, replicas: 3 }, "autoScaling"),
    scaling("not an object", 5, "autoScaling"),
    ["enableNoise not a boolean", { enableNoise: "yes" }, "enableNoise"],
    ["an unknown field", { colour: "blue" }, "colour"],
    ["a provider-only setting", { waitForReady: false }, "waitForReady"],
  ];

  let n = 0;
  it.each(cases)("%s", async (_label, change, properties) => {
    const name = `rule-bot-${++n}`;
    const body = { ...valid, serviceName: name, ...change };
    const message = expectError(await emu.raw("POST", "/v1/agents", { json: body }), 400, "GENERIC_BAD_REQUEST");
    for (const property of [properties].flat()) expect(message).toContain(`${property}:`);
    // Nothing was created under the name that was sent.
    const sentName = body.serviceName;
    if (typeof sentName === "string" && /^[a-z0-9-]+$/.test(sentName)) {
      expect((await emu.raw("GET", `/v1/agents/${sentName}`)).status).toBe(404);
    }
  });

  it.each([
    ["serviceName missing", { image: "bot:1" }, "serviceName"],
    ["image missing", { serviceName: "no-image-bot" }, "image"],
    ["image null", { serviceName: "null-image-bot", image: null }, "image"],
  ])("%s", async (_label, body, property) => {
    const message = expectError(await emu.raw("POST", "/v1/agents", { json: body }), 400, "GENERIC_BAD_REQUEST");
    expect(message).toContain(property);
    expect(message).toMatch(/required/i);
  });

  it.each([
    ["an array", []],
    ["null", null],
    ["a string", "serviceName"],
    ["a number", 7],
  ])("a body that is %s", async (_label, json) => {
    expectError(await emu.raw("POST", "/v1/agents", { body: JSON.stringify(json), headers: { "content-type": "application/json" } }), 400, "GENERIC_BAD_REQUEST");
  });

  it("a serviceName of 54 characters, the longest allowed, is accepted", async () => {
    const name = "b".repeat(54);
    const r = await emu.raw("POST", "/v1/agents", { json: { ...valid, serviceName: name } });
    expect(r.status).toBe(200);
    expect((await emu.raw("GET", `/v1/agents/${name}`)).status).toBe(200);
  });

  it("names every wrong field in one message", async () => {
    const r = await emu.raw("POST", "/v1/agents", {
      json: {
        serviceName: "Bad_Name",
        image: "no tag",
        nodeType: "x86",
        secretSet: "ab",
        autoScaling: { minAgents: 5, maxAgents: 2 },
        enableNoise: "loud",
        extra: true,
      },
    });
    const message = expectError(r, 400, "GENERIC_BAD_REQUEST");
    for (const property of ["serviceName", "image", "nodeType", "secretSet", "autoScaling.minAgents", "enableNoise", "extra"]) {
      expect(message).toContain(`${property}:`);
    }
    expect((await emu.raw("GET", "/v1/agents/Bad_Name")).status).toBe(404);
  });

  it("is a BadRequestError from the service when the client's checks pass but the set is missing", async () => {
    const error = await client.createAgent({ serviceName: "missing-set-bot", image: "bot:1", secretSet: "no-such-set" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).status).toBe(400);
    expect((error as BadRequestError).serviceMessage).toContain("no-such-set");
  });
});

describe("400 for secret sets that do not exist", () => {
  it("names the missing secretSet, and creates nothing", async () => {
    const r = await emu.raw("POST", "/v1/agents", { json: { serviceName: "orphan-bot", image: "bot:1", secretSet: "ghost-set" } });
    const message = expectError(r, 400, "GENERIC_BAD_REQUEST");
    expect(message).toContain("ghost-set");
    expect(message).toContain("secretSet");
    expect((await emu.raw("GET", "/v1/agents/orphan-bot")).status).toBe(404);
  });

  it("names the missing imagePullSecretSet", async () => {
    const r = await emu.raw("POST", "/v1/agents", { json: { serviceName: "orphan-bot", image: "bot:1", imagePullSecretSet: "ghost-pull" } });
    expect(expectError(r, 400, "GENERIC_BAD_REQUEST")).toContain("ghost-pull");
  });

  it("names both missing sets at once", async () => {
    const r = await emu.raw("POST", "/v1/agents", {
      json: { serviceName: "orphan-bot", image: "bot:1", secretSet: "missing-one", imagePullSecretSet: "missing-two" },
    });
    const message = expectError(r, 400, "GENERIC_BAD_REQUEST");
    for (const part of ["secretSet", "missing-one", "imagePullSecretSet", "missing-two"]) expect(message).toContain(part);
    expect((await emu.raw("GET", "/v1/agents/orphan-bot")).status).toBe(404);
  });

  it("names a missing set on update too, and leaves the agent as it was", async () => {
    const created = await client.createAgent({ serviceName: "keep-bot", image: "bot:1", secretSet: "voice-secrets" });
    const r = await emu.raw("POST", "/v1/agents/keep-bot", { json: { image: "bot:2", secretSet: "ghost-set" } });
    expect(expectError(r, 400, "GENERIC_BAD_REQUEST")).toContain("ghost-set");
    const pull = await emu.raw("POST", "/v1/agents/keep-bot", { json: { image: "bot:2", imagePullSecretSet: "missing-pull" } });
    const message = expectError(pull, 400, "GENERIC_BAD_REQUEST");
    expect(message).toContain("imagePullSecretSet");
    expect(message).toContain("missing-pull");
    const after = await client.getAgent("keep-bot");
    expect(after.activeDeploymentId).toBe(created.activeDeploymentId);
    expect(documented(after).deployment.manifest.spec.image).toBe("bot:1");
  });
});

describe("400 on update", () => {
  it("refuses serviceName in the body, a missing image and bad fields, all named", async () => {
    await client.createAgent({ serviceName: "upd-bot", image: "bot:1" });
    const renamed = await emu.raw("POST", "/v1/agents/upd-bot", { json: { serviceName: "other", image: "bot:1" } });
    expect(expectError(renamed, 400, "GENERIC_BAD_REQUEST")).toContain("serviceName");
    const noImage = await emu.raw("POST", "/v1/agents/upd-bot", { json: { nodeType: "arm" } });
    expect(expectError(noImage, 400, "GENERIC_BAD_REQUEST")).toContain("image:");
    const empty = await emu.raw("POST", "/v1/agents/upd-bot", { json: {} });
    expect(expectError(empty, 400, "GENERIC_BAD_REQUEST")).toContain("image:");
    const several = await emu.raw("POST", "/v1/agents/upd-bot", {
      json: { image: "bot:", nodeType: "amd64", autoScaling: { minAgents: 2, maxAgents: 0 } },
    });
    const message = expectError(several, 400, "GENERIC_BAD_REQUEST");
    for (const property of ["image", "nodeType", "autoScaling.maxAgents"]) expect(message).toContain(property);
    expect(documented(await client.getAgent("upd-bot")).deployment.manifest.spec.image).toBe("bot:1");
  });
});

describe("400 for bodies the emulator cannot read", () => {
  it("bad JSON", async () => {
    const r = await emu.raw("POST", "/v1/agents", { body: '{"serviceName": "json-bot", "image": ', headers: { "content-type": "application/json" } });
    expect(expectError(r, 400, "GENERIC_BAD_REQUEST")).toMatch(/json/i);
    await client.createAgent({ serviceName: "json-bot", image: "bot:1" });
    const update = await emu.raw("POST", "/v1/agents/json-bot", { body: "[1,", headers: { "content-type": "application/json" } });
    expectError(update, 400, "GENERIC_BAD_REQUEST");
    await expectAlive();
  });

  it("an empty body", async () => {
    const r = await emu.raw("POST", "/v1/agents", { body: "", headers: { "content-type": "application/json" } });
    expectError(r, 400, "GENERIC_BAD_REQUEST");
  });

  it.each([
    ["text/plain", { "content-type": "text/plain" }],
    ["application/x-www-form-urlencoded", { "content-type": "application/x-www-form-urlencoded" }],
    ["no content type", {}],
  ])("valid JSON sent as %s", async (_label, headers: Record<string, string>) => {
    const r = await emu.raw("POST", "/v1/agents", { body: JSON.stringify({ serviceName: "type-bot", image: "bot:1" }), headers });
    expect(expectError(r, 400, "GENERIC_BAD_REQUEST")).toMatch(/content-type/i);
    expect((await emu.raw("GET", "/v1/agents/type-bot")).status).toBe(404);
  });

  it("accepts application/json with a charset", async () => {
    const r = await emu.raw("POST", "/v1/agents", {
      body: JSON.stringify({ serviceName: "charset-bot", image: "bot:1" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(r.status).toBe(200);
  });

  it("a body over 1 MiB, after which the server still answers", async () => {
    const padding = "x".repeat(MAX_BODY_BYTES);
    const r = await emu.raw("POST", "/v1/agents", { json: { serviceName: "huge-bot", image: "bot:1", padding } });
    expect(expectError(r, 400, "GENERIC_BAD_REQUEST")).toMatch(/larger/i);
    expect((await emu.raw("GET", "/v1/agents/huge-bot")).status).toBe(404);
    await expectAlive();
    // On update as well.
    await client.createAgent({ serviceName: "big-update-bot", image: "bot:1" });
    const u = await emu.raw("POST", "/v1/agents/big-update-bot", { json: { image: "bot:2", padding } });
    expectError(u, 400, "GENERIC_BAD_REQUEST");
    expect(documented(await client.getAgent("big-update-bot")).deployment.manifest.spec.image).toBe("bot:1");
    await expectAlive();
  });

  it("a body of exactly 1 MiB is read (and then judged on its fields)", async () => {
    const json = JSON.stringify({ serviceName: "mib-bot", image: "bot:1" });
    const body = json + " ".repeat(MAX_BODY_BYTES - Buffer.byteLength(json));
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const r = await emu.raw("POST", "/v1/agents", { body, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(200);
    expect(r.json.name).toBe("mib-bot");
  });
});

describe("404 NOT_FOUND", () => {
  it.each([
    ["GET", "/v1/agents/nobody-bot"],
    ["POST", "/v1/agents/nobody-bot"],
    ["DELETE", "/v1/agents/nobody-bot"],
    ["GET", "/v1/agents/nobody-bot/logs"],
  ])("%s %s for an unknown agent, naming it", async (method, path) => {
    const options = method === "POST" ? { json: { image: "bot:1" } } : {};
    const message = expectError(await emu.raw(method, path, options), 404, "NOT_FOUND");
    expect(message).toContain("nobody-bot");
  });

  it("for an unknown secret set, naming it", async () => {
    const message = expectError(await emu.raw("GET", "/v1/secrets/no-such-set"), 404, "NOT_FOUND");
    expect(message).toContain("no-such-set");
    await expect(client.getSecretSet("no-such-set")).rejects.toBeInstanceOf(NotFoundError);
  });

  it.each([
    "GET /v1",
    "GET /v1/agents",
    "GET /v1/nothing-here",
    "GET /v1/agents/some-bot/logs/extra",
    "GET /v1/agents/some-bot/sessions",
    "PUT /v1/agents/some-bot",
    "PATCH /v1/agents/some-bot",
    "DELETE /v1/secrets/voice-secrets",
    "POST /v1/secrets/voice-secrets",
    "GET /v1/secrets/voice-secrets/fields",
    "GET /v2/agents/some-bot",
    "GET /",
    "GET /_emulator/nothing",
  ])("for the unknown route %s", async (route) => {
    expectError(await call(route), 404, "NOT_FOUND");
  });

  it("unknown agents are NotFoundErrors through the client", async () => {
    for (const call of [
      () => client.getAgent("nobody-bot"),
      () => client.updateAgent("nobody-bot", { image: "bot:1" }),
      () => client.deleteAgent("nobody-bot"),
      () => client.getAgentLogs({ agentName: "nobody-bot" }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).code).toBe("NOT_FOUND");
    }
  });
});

describe("409 CONFLICT", () => {
  it("for a name already taken, leaving the first agent untouched", async () => {
    const first = await client.createAgent({ serviceName: "taken-bot", image: "bot:1" });
    const r = await emu.raw("POST", "/v1/agents", { json: { serviceName: "taken-bot", image: "bot:2" } });
    expect(expectError(r, 409, "CONFLICT")).toContain("taken-bot");
    const after = await client.getAgent("taken-bot");
    expect(after.activeDeploymentId).toBe(first.activeDeploymentId);
    expect(documented(after).deployment.manifest.spec.image).toBe("bot:1");
    await expect(client.createAgent({ serviceName: "taken-bot", image: "bot:3" })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe("secret set names", () => {
  it.each([
    ["2 characters", "ab"],
    ["64 characters", "a".repeat(64)],
  ])("a set name of %s is a 400", async (_label, name) => {
    const message = expectError(await emu.raw("GET", `/v1/secrets/${name}`), 400, "GENERIC_BAD_REQUEST");
    expect(message).toContain("setName");
  });

  // The document limits a set name to its length only; a name of another form is simply not found.
  it.each([
    ["uppercase", "Voice-Secrets"],
    ["an underscore", "voice_secrets"],
    ["a leading hyphen", "-starts-with-hyphen"],
  ])("a set name of %s within 3 to 63 characters is looked up (404 when absent)", async (_label, name) => {
    expect(expectError(await emu.raw("GET", `/v1/secrets/${name}`), 404, "NOT_FOUND")).toContain(name);
  });

  it("3 and 63 characters are valid names (404 when absent)", async () => {
    expectError(await emu.raw("GET", "/v1/secrets/abc"), 404, "NOT_FOUND");
    expectError(await emu.raw("GET", `/v1/secrets/${"a".repeat(63)}`), 404, "NOT_FOUND");
  });
});

describe("malformed paths", () => {
  const MALFORMED = [
    "GET /v1/agents/%E0%A4%A",
    "GET /v1/agents/%zz",
    "GET /v1/agents/bot%/logs",
    "DELETE /v1/agents/%FF",
    "GET /v1/secrets/%C3%28",
  ];

  it.each(MALFORMED)("%s is a 400, never a crash", async (route) => {
    expectError(await call(route), 400, "GENERIC_BAD_REQUEST");
    await expectAlive();
  });

  it("a malformed control path is a 400 too", async () => {
    const r = await fetch(`${emu.emulator.baseUrl}/_emulator/agents/%zz/logs`);
    expect(r.status).toBe(400);
    await expectAlive();
  });

  it("names that break the rules in a path are a 400 or a 404, never a crash", async () => {
    for (const path of ["/v1/agents/Bad_Name", "/v1/agents/a%20b", "/v1/agents/%2e%2e", "/v1/agents/a%2Fb/logs", "/v1/agents/%ZZ", "/v1/secrets/%E0%A4%A"]) {
      const r = await emu.raw("GET", path);
      expect([400, 404], `${path}: ${r.text}`).toContain(r.status);
      errorBodySchema.parse(r.json);
    }
    await expectAlive();
  });

  it("an unusual request target is answered, not crashed on", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const headers = { authorization: `Bearer ${API_KEY}` };
      const req = httpRequest({ host: "127.0.0.1", port: emu.emulator.port, path: "//v1/agents/some-bot?x=%", method: "GET", headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(404);
    await expectAlive();
  });

  it("an encoded slash stays inside one name segment", async () => {
    const message = expectError(await emu.raw("GET", "/v1/agents/a%2Fb"), 404, "NOT_FOUND");
    expect(message).toContain("a/b");
  });
});
