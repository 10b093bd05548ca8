/** Every error answer of the emulator's /v1 endpoints: { error, code } with the right status, never a crash. */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBodySchema } from "../../src/client/schemas";
import { harness, type Answer, type Harness } from "./support/emulator-harness";

const API_KEY = "errors-test-key-DO-NOT-ECHO";
let h: Harness;

beforeAll(async () => {
  h = await harness({ apiKey: API_KEY, readyAfterMs: 100, secretSets: { "voice-secrets": ["TOKEN"] } });
  await h.call("POST", "/v1/agents", { json: { serviceName: "taken-bot", image: "bot:1" } });
});
afterAll(async () => h?.close());

function expectError(r: Answer, status: number, code: string): string {
  expect(r.status, r.text).toBe(status);
  expect(errorBodySchema.safeParse(r.body).success, r.text).toBe(true);
  expect(Object.keys(r.body).sort()).toEqual(["code", "error"]);
  expect(r.body.code).toBe(code);
  return r.body.error as string;
}

describe("401 UNAUTHORIZED", () => {
  const routes: [string, string, unknown?][] = [
    ["POST", "/v1/agents", { serviceName: "x-bot", image: "bot:1" }],
    ["GET", "/v1/agents/taken-bot"],
    ["POST", "/v1/agents/taken-bot", { image: "bot:2" }],
    ["DELETE", "/v1/agents/taken-bot"],
    ["GET", "/v1/agents/taken-bot/logs"],
    ["GET", "/v1/secrets/voice-secrets"],
    ["GET", "/v1/no-such-route"],
  ];

  it.each(routes)("%s %s without a key", async (method, path, json) => {
    expectError(await h.call(method, path, { key: null, ...(json ? { json } : {}) }), 401, "UNAUTHORIZED");
  });

  it.each(routes)("%s %s with a wrong key, not echoed", async (method, path, json) => {
    const wrong = "wrong-key-SHOULD-NOT-LEAK-42";
    const message = expectError(await h.call(method, path, { key: wrong, ...(json ? { json } : {}) }), 401, "UNAUTHORIZED");
    expect(message).not.toContain(wrong);
    expect(message).not.toContain(API_KEY);
  });

  it("other schemes and malformed headers are refused", async () => {
    for (const authorization of [`Basic ${API_KEY}`, `bearer ${API_KEY}`, `Bearer`, `Bearer  ${API_KEY}`, API_KEY, `Bearer ${API_KEY}x`]) {
      const r = await h.call("GET", "/v1/agents/taken-bot", { key: null, headers: { authorization } });
      expectError(r, 401, "UNAUTHORIZED");
    }
    // Nothing was changed by the refused calls above.
    expect((await h.call("GET", "/v1/agents/taken-bot")).status).toBe(200);
  });
});

describe("400 GENERIC_BAD_REQUEST: the input rules", () => {
  const create = (json: unknown) => h.call("POST", "/v1/agents", { json });
  const update = (json: unknown) => h.call("POST", "/v1/agents/taken-bot", { json });

  it.each([
    ["serviceName missing", { image: "bot:1" }, ["serviceName"]],
    ["image missing", { serviceName: "a-bot" }, ["image"]],
    ["serviceName with uppercase", { serviceName: "Bad_Name", image: "bot:1" }, ["serviceName"]],
    ["serviceName ending in a hyphen", { serviceName: "bot-", image: "bot:1" }, ["serviceName"]],
    ["serviceName too long", { serviceName: "a".repeat(64), image: "bot:1" }, ["serviceName"]],
    ["serviceName not a string", { serviceName: 42, image: "bot:1" }, ["serviceName"]],
    ["image with an uppercase path", { serviceName: "a-bot", image: "Bot:1" }, ["image"]],
    ["image with whitespace", { serviceName: "a-bot", image: "bot :1" }, ["image"]],
    ["nodeType x86", { serviceName: "a-bot", image: "bot:1", nodeType: "x86" }, ["nodeType"]],
    ["secretSet too short", { serviceName: "a-bot", image: "bot:1", secretSet: "ab" }, ["secretSet"]],
    ["imagePullSecretSet uppercase", { serviceName: "a-bot", image: "bot:1", imagePullSecretSet: "Pull" }, ["imagePullSecretSet"]],
    ["autoScaling min > max", { serviceName: "a-bot", image: "bot:1", autoScaling: { minAgents: 4, maxAgents: 2 } }, ["autoScaling.minAgents"]],
    ["autoScaling maxAgents 0", { serviceName: "a-bot", image: "bot:1", autoScaling: { minAgents: 0, maxAgents: 0 } }, ["autoScaling.maxAgents"]],
    ["autoScaling not integers", { serviceName: "a-bot", image: "bot:1", autoScaling: { minAgents: 1.5, maxAgents: "2" } }, ["autoScaling.minAgents", "autoScaling.maxAgents"]],
    ["enableNoise not a boolean", { serviceName: "a-bot", image: "bot:1", enableNoise: "yes" }, ["enableNoise"]],
    ["an unknown field", { serviceName: "a-bot", image: "bot:1", replicas: 3 }, ["replicas"]],
    ["a provider setting", { serviceName: "a-bot", image: "bot:1", waitForReady: false }, ["waitForReady"]],
  ])("create: %s", async (_what, json, fields) => {
    const message = expectError(await create(json), 400, "GENERIC_BAD_REQUEST");
    for (const field of fields) expect(message).toContain(`${field}:`);
  });

  it("create: several bad fields are all named in one message", async () => {
    const message = expectError(
      await create({ serviceName: "Bad_Name", image: "no tag", nodeType: "x86", secretSet: "x", autoScaling: { minAgents: 4, maxAgents: 2 }, enableNoise: 1 }),
      400,
      "GENERIC_BAD_REQUEST",
    );
    for (const field of ["serviceName:", "image:", "nodeType:", "secretSet:", "autoScaling.minAgents:", "enableNoise:"]) {
      expect(message).toContain(field);
    }
    expect((await h.call("GET", "/v1/agents/Bad_Name")).status).toBe(404);
  });

  it("create: the body must be a JSON object", async () => {
    for (const json of [[], "text", 12, null]) expectError(await create(json), 400, "GENERIC_BAD_REQUEST");
  });

  it("update: image is required, serviceName is not allowed, several fields named at once", async () => {
    expect(expectError(await update({}), 400, "GENERIC_BAD_REQUEST")).toContain("image:");
    expect(expectError(await update({ serviceName: "taken-bot", image: "bot:1" }), 400, "GENERIC_BAD_REQUEST")).toContain("serviceName:");
    const message = expectError(await update({ image: "bad image", nodeType: "amd", autoScaling: { minAgents: -1, maxAgents: 1 } }), 400, "GENERIC_BAD_REQUEST");
    for (const field of ["image:", "nodeType:", "autoScaling.minAgents:"]) expect(message).toContain(field);
  });

  it("a secret set that does not exist is named, with its field", async () => {
    const one = expectError(await create({ serviceName: "set-bot", image: "bot:1", secretSet: "missing-set" }), 400, "GENERIC_BAD_REQUEST");
    expect(one).toContain("secretSet");
    expect(one).toContain("missing-set");
    const both = expectError(
      await create({ serviceName: "set-bot", image: "bot:1", secretSet: "missing-one", imagePullSecretSet: "missing-two" }),
      400,
      "GENERIC_BAD_REQUEST",
    );
    for (const part of ["secretSet", "missing-one", "imagePullSecretSet", "missing-two"]) expect(both).toContain(part);
    const viaUpdate = expectError(await update({ image: "bot:1", imagePullSecretSet: "missing-pull" }), 400, "GENERIC_BAD_REQUEST");
    expect(viaUpdate).toContain("imagePullSecretSet");
    expect(viaUpdate).toContain("missing-pull");
    expect((await h.call("GET", "/v1/agents/set-bot")).status).toBe(404);
  });
});

describe("400 GENERIC_BAD_REQUEST: bodies", () => {
  it("bad JSON", async () => {
    expectError(await h.call("POST", "/v1/agents", { raw: "{not json", headers: { "content-type": "application/json" } }), 400, "GENERIC_BAD_REQUEST");
    expectError(await h.call("POST", "/v1/agents", { raw: "", headers: { "content-type": "application/json" } }), 400, "GENERIC_BAD_REQUEST");
    expectError(await h.call("POST", "/v1/agents/taken-bot", { raw: "[1,", headers: { "content-type": "application/json" } }), 400, "GENERIC_BAD_REQUEST");
  });

  it("a content type other than application/json, or none", async () => {
    const body = JSON.stringify({ serviceName: "ct-bot", image: "bot:1" });
    expectError(await h.call("POST", "/v1/agents", { raw: body, headers: { "content-type": "text/plain" } }), 400, "GENERIC_BAD_REQUEST");
    expectError(await h.call("POST", "/v1/agents", { raw: body }), 400, "GENERIC_BAD_REQUEST");
    expect((await h.call("POST", "/v1/agents", { raw: body, headers: { "content-type": "application/json; charset=utf-8" } })).status).toBe(200);
  });

  it("a body over 1 MiB, and the emulator keeps answering", async () => {
    const big = JSON.stringify({ serviceName: "big-bot", image: "bot:1", pad: "x".repeat(1024 * 1024 + 10) });
    const message = expectError(await h.call("POST", "/v1/agents", { raw: big, headers: { "content-type": "application/json" } }), 400, "GENERIC_BAD_REQUEST");
    expect(message).toMatch(/larger than/);
    expect((await h.call("GET", "/v1/agents/taken-bot")).status).toBe(200);
  });
});

describe("400 on logs queries and secret set names", () => {
  it.each([
    "limit=0",
    "limit=1001",
    "limit=1.5",
    "limit=-1",
    "limit=ten",
    "limit=",
    "offset=-1",
    "offset=1e3",
    "order=newest",
    "startTime=yesterday",
    "endTime=-5",
  ])("logs ?%s", async (query) => {
    const message = expectError(await h.call("GET", `/v1/agents/taken-bot/logs?${query}`), 400, "GENERIC_BAD_REQUEST");
    expect(message).toContain(query.split("=")[0] as string);
  });

  it("logs: several bad parameters named at once", async () => {
    const message = expectError(await h.call("GET", "/v1/agents/taken-bot/logs?limit=0&offset=x&order=up"), 400, "GENERIC_BAD_REQUEST");
    for (const name of ["limit", "offset", "order"]) expect(message).toContain(name);
  });

  it.each(["ab", "a".repeat(64)])("GET /v1/secrets/%s", async (name) => {
    const message = expectError(await h.call("GET", `/v1/secrets/${name}`), 400, "GENERIC_BAD_REQUEST");
    expect(message).toContain("setName");
  });

  // The document limits a set name to its length only; a name of another form is simply not found.
  it.each(["Upper-Case", "-starts-with-hyphen"])("GET /v1/secrets/%s is looked up (404)", async (name) => {
    expect(expectError(await h.call("GET", `/v1/secrets/${name}`), 404, "NOT_FOUND")).toContain(name);
  });
});

describe("404 NOT_FOUND and 409 CONFLICT", () => {
  it("unknown agent on every agent route", async () => {
    expectError(await h.call("GET", "/v1/agents/no-such-bot"), 404, "NOT_FOUND");
    expectError(await h.call("POST", "/v1/agents/no-such-bot", { json: { image: "bot:1" } }), 404, "NOT_FOUND");
    expectError(await h.call("DELETE", "/v1/agents/no-such-bot"), 404, "NOT_FOUND");
    expectError(await h.call("GET", "/v1/agents/no-such-bot/logs"), 404, "NOT_FOUND");
  });

  it("unknown secret set", async () => {
    expect(expectError(await h.call("GET", "/v1/secrets/no-such-set"), 404, "NOT_FOUND")).toContain("no-such-set");
  });

  it("unknown routes and methods", async () => {
    expectError(await h.call("GET", "/v1"), 404, "NOT_FOUND");
    expectError(await h.call("GET", "/v1/agents"), 404, "NOT_FOUND");
    expectError(await h.call("PUT", "/v1/agents/taken-bot", { json: { image: "bot:1" } }), 404, "NOT_FOUND");
    expectError(await h.call("GET", "/v1/agents/taken-bot/logs/extra"), 404, "NOT_FOUND");
    expectError(await h.call("POST", "/v1/secrets/voice-secrets", { json: {} }), 404, "NOT_FOUND");
    expectError(await h.call("GET", "/v2/agents/taken-bot"), 404, "NOT_FOUND");
    expectError(await h.call("GET", "/"), 404, "NOT_FOUND");
    expectError(await h.call("GET", "/_emulator/nothing"), 404, "NOT_FOUND");
  });

  it("names that break the rules in a path: 404 or 400, never a crash", async () => {
    for (const path of ["/v1/agents/Bad_Name", "/v1/agents/a%20b", "/v1/agents/%2e%2e", "/v1/agents/a%2Fb/logs", "/v1/agents/%ZZ", "/v1/secrets/%E0%A4%A"]) {
      const r = await h.call("GET", path);
      expect([400, 404], `${path}: ${r.text}`).toContain(r.status);
      expect(errorBodySchema.safeParse(r.body).success).toBe(true);
    }
    expect((await h.call("GET", "/v1/agents/taken-bot")).status).toBe(200);
  });

  it("an unusual request target is answered, not crashed on", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: h.emulator.port, path: "//v1/agents/taken-bot?x=%", method: "GET", headers: { authorization: `Bearer ${API_KEY}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(404);
  });

  it("409 when the serviceName is taken, and the existing agent is unchanged", async () => {
    const before = (await h.call("GET", "/v1/agents/taken-bot")).body;
    const message = expectError(await h.call("POST", "/v1/agents", { json: { serviceName: "taken-bot", image: "other:2" } }), 409, "CONFLICT");
    expect(message).toContain("taken-bot");
    const after = (await h.call("GET", "/v1/agents/taken-bot")).body;
    expect(after.activeDeploymentId).toBe(before.activeDeploymentId);
    expect(after.deployment.manifest.spec.image).toBe("bot:1");
  });
});
