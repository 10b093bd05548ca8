/**
 * The API key is sent (Authorization: Bearer) but never appears in an error:
 * not in its message, String(), stack, JSON, inspect() output, nor in any
 * onRetry note.
 */
import { inspect } from "node:util";
import type { Interceptable } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentHostingClient } from "../../src/client/client";
import { AuthenticationError, ConflictError, ConnectionError, InputValidationError, ResponseValidationError, ServerError, TimeoutError } from "../../src/client/errors";
import type { CreateAgentBody } from "../../src/client/request-types";
import { JSON_REPLY, collect, errorJson, headersOf, makeHarness, rejectionOf, thrownBy, headersTimeout, refused, reset, type Harness } from "./support/client-harness";
import { API_KEY, agentJson, IMAGE } from "../support/fixtures";


let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  // Every note of every test is free of the key too.
  expect(JSON.stringify(h.notes)).not.toContain(API_KEY);
  await h.finish();
});

function expectNoKey(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  const e = error as Error;
  expect(e.message).not.toContain(API_KEY);
  expect(String(e)).not.toContain(API_KEY);
  expect(e.stack ?? "").not.toContain(API_KEY);
  expect(JSON.stringify(e)).not.toContain(API_KEY);
  expect(inspect(e, { depth: 10, showHidden: true })).not.toContain(API_KEY);
  // And not any recognisable part of it.
  expect(inspect(e, { depth: 10 })).not.toMatch(/sk-test|SECRET-123/);
}

/** The key was really sent with every request: the checks above are not vacuous. */
function expectKeySent(count: number): void {
  const calls = h.calls();
  expect(calls).toHaveLength(count);
  for (const call of calls) expect(headersOf(call)["authorization"]).toBe(`Bearer ${API_KEY}`);
}

type Scope = ReturnType<Interceptable["intercept"]>;
const getAgent = (c: AgentHostingClient) => c.getAgent("voice-bot");
const createAgent = (c: AgentHostingClient) => c.createAgent({ serviceName: "voice-bot", image: IMAGE });
const deleteAgent = (c: AgentHostingClient) => c.deleteAgent("voice-bot");

interface FailureCase {
  label: string;
  method: "GET" | "POST" | "DELETE";
  answer: (scope: Scope) => unknown;
  invoke: (c: AgentHostingClient) => Promise<unknown>;
  cls: new (...args: never[]) => Error;
  /** How many requests carried the key (one, or four with the retries). */
  sent: number;
}

const FAILURES: FailureCase[] = [
  { label: "401 on GET", method: "GET", answer: (s) => s.reply(401, errorJson("UNAUTHORIZED", "invalid API key"), JSON_REPLY), invoke: getAgent, cls: AuthenticationError, sent: 1 },
  { label: "401 on create", method: "POST", answer: (s) => s.reply(401, errorJson("UNAUTHORIZED", "invalid API key"), JSON_REPLY), invoke: createAgent, cls: AuthenticationError, sent: 1 },
  { label: "500 on GET after all retries", method: "GET", answer: (s) => s.reply(500, errorJson("INTERNAL_SERVER_ERROR", "boom"), JSON_REPLY).times(4), invoke: getAgent, cls: ServerError, sent: 4 },
  { label: "500 on DELETE after all retries", method: "DELETE", answer: (s) => s.reply(500, "").times(4), invoke: deleteAgent, cls: ServerError, sent: 4 },
  { label: "ECONNRESET on GET after all retries", method: "GET", answer: (s) => s.replyWithError(reset()).times(4), invoke: getAgent, cls: ConnectionError, sent: 4 },
  { label: "ECONNREFUSED on create after all retries", method: "POST", answer: (s) => s.replyWithError(refused()).times(4), invoke: createAgent, cls: ConnectionError, sent: 4 },
];

describe("a failed call, after every attempt", () => {
  it.each(FAILURES.map((c) => [c.label, c] as const))("%s", async (_label, c) => {
    c.answer(h.api.intercept({ path: c.method === "POST" ? "/v1/agents" : "/v1/agents/voice-bot", method: c.method }));
    const error = await rejectionOf(c.invoke(h.client));
    expect(error).toBeInstanceOf(c.cls);
    expectNoKey(error);
    expectKeySent(c.sent);
    expect(h.notes).toHaveLength(c.sent - 1);
  });
});

describe("errors from the service", () => {
  it("401 whose body echoes the presented token", async () => {
    h.api
      .intercept({ path: "/v1/secrets/team-secrets", method: "GET" })
      .reply(401, errorJson("UNAUTHORIZED", `token "Bearer ${API_KEY}" is not valid`), JSON_REPLY);
    const error = await rejectionOf(h.client.getSecretSet("team-secrets"));
    expect(error).toBeInstanceOf(AuthenticationError);
    expectNoKey(error);
    expect((error as AuthenticationError).serviceMessage).toBe('token "Bearer [REDACTED]" is not valid');
  });

  it("a raw (non-JSON) error page that echoes the request headers", async () => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "DELETE" })
      .reply(400, `Bad Request\nAuthorization: Bearer ${API_KEY}\nAccept: application/json`);
    const error = await rejectionOf(h.client.deleteAgent("voice-bot"));
    expectNoKey(error);
  });

  it("500 on create, never found on read-back, after all re-posts", async () => {
    for (let i = 0; i < 4; i++) {
      h.api.intercept({ path: "/v1/agents", method: "POST" }).reply(500, "");
      h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(404, errorJson("NOT_FOUND", "no"), JSON_REPLY);
    }
    const error = await rejectionOf(h.client.createAgent({ serviceName: "voice-bot", image: IMAGE }));
    expect(error).toBeInstanceOf(ServerError);
    expectNoKey(error);
    expectKeySent(8);
    expect(h.notes).toHaveLength(3);
  });

  it("the ConflictError of a read-back that found a different agent", async () => {
    h.api.intercept({ path: "/v1/agents", method: "POST" }).reply(500, "");
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "GET" })
      .reply(200, agentJson({ image: "other:1" }), JSON_REPLY);
    const error = await rejectionOf(h.client.createAgent({ serviceName: "voice-bot", image: IMAGE }));
    expect(error).toBeInstanceOf(ConflictError);
    expectNoKey(error);
  });
});

describe("transport errors", () => {
  it("a connection error whose own message carries the header", async () => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "GET" })
      .replyWithError(new Error(`request failed: authorization=Bearer ${API_KEY}`))
      .times(4);
    const error = await rejectionOf(h.client.getAgent("voice-bot"));
    expect(error).toBeInstanceOf(ConnectionError);
    expectNoKey(error);
  });

  it("a timeout", async () => {
    h.api
      .intercept({ path: (p: string) => p.startsWith("/v1/agents/voice-bot/logs"), method: "GET" })
      .replyWithError(headersTimeout())
      .times(4);
    const error = await rejectionOf(collect(h.client.iterateAgentLogs({ agentName: "voice-bot" })));
    expect(error).toBeInstanceOf(TimeoutError);
    expectNoKey(error);
  });
});

describe("validation errors", () => {
  it("InputValidationError of a create body", async () => {
    const body = { serviceName: "Bad", image: "x" } as unknown as CreateAgentBody;
    const error = await rejectionOf(h.client.createAgent(body));
    expect(error).toBeInstanceOf(InputValidationError);
    expectNoKey(error);
    expectKeySent(0);
  });

  it("InputValidationError of a path name and of a logs query", async () => {
    expectNoKey(await rejectionOf(h.client.getAgent("../x")));
    expectNoKey(thrownBy(() => h.client.iterateAgentLogs({ agentName: "voice-bot", pageSize: 0 })));
    expectKeySent(0);
  });

  it("ResponseValidationError of a broken agent", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, { name: "voice-bot" }, JSON_REPLY);
    const error = await rejectionOf(h.client.getAgent("voice-bot"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoKey(error);
    expectKeySent(1);
  });

  it("ResponseValidationError of a body that is not JSON and echoes the key", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot/logs", method: "GET" }).reply(200, `Authorization: Bearer ${API_KEY}`);
    const error = await rejectionOf(h.client.getAgentLogs({ agentName: "voice-bot" }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoKey(error);
  });

  it("ResponseValidationError of a field whose value is the key", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, { ...agentJson(), ready: API_KEY }, JSON_REPLY);
    const error = await rejectionOf(h.client.getAgent("voice-bot"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoKey(error);
  });
});

describe("onRetry notes", () => {
  it("carry method, path, attempt, delay and reason, and never the key", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(503, errorJson("UNAVAILABLE", `Bearer ${API_KEY}`), JSON_REPLY);
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).replyWithError(reset());
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(429, "", { headers: { "retry-after": "1" } });
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(200, agentJson(), JSON_REPLY);
    await h.client.getAgent("voice-bot");
    expect(h.notes.map((n) => n.reason)).toEqual(["503 UNAVAILABLE", "ECONNRESET", "429 RATE_LIMITED"]);
    for (const note of h.notes) expect(inspect(note)).not.toContain(API_KEY);
  });
});
