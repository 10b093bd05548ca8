/**
 * AgentHostingClient: every error status of every method maps to its class
 * (the service's status and code decide it), carrying status, code, the service's message, method
 * and path. Retries are switched off here (maxRetries: 0) so each case is
 * one exchange; the retry rules are in client-retries.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentHostingError, ApiError, AuthenticationError, BadRequestError, ConflictError, ConnectionError, NotFoundError, RateLimitError, ServerError, TimeoutError } from "../../src/client/errors";
import { parseRetryAfter } from "../../src/client/error-mapping";
import type { AgentHostingClient } from "../../src/client/client";
import { JSON_REPLY, collect, errorJson, makeHarness, headersTimeout, refused, rejectionOf, reset, type Harness } from "./support/client-harness";
import { IMAGE } from "../support/fixtures";


interface MethodCase {
  label: string;
  method: "GET" | "POST" | "DELETE";
  path: string;
  invoke: (client: AgentHostingClient) => Promise<unknown>;
}

const METHODS: MethodCase[] = [
  {
    label: "createAgent",
    method: "POST",
    path: "/v1/agents",
    invoke: (c) => c.createAgent({ serviceName: "voice-bot", image: IMAGE }),
  },
  { label: "getAgent", method: "GET", path: "/v1/agents/voice-bot", invoke: (c) => c.getAgent("voice-bot") },
  {
    label: "updateAgent",
    method: "POST",
    path: "/v1/agents/voice-bot",
    invoke: (c) => c.updateAgent("voice-bot", { image: IMAGE }),
  },
  { label: "deleteAgent", method: "DELETE", path: "/v1/agents/voice-bot", invoke: (c) => c.deleteAgent("voice-bot") },
  {
    label: "getAgentLogs",
    method: "GET",
    path: "/v1/agents/voice-bot/logs",
    invoke: (c) => c.getAgentLogs({ agentName: "voice-bot", limit: 10 }),
  },
  {
    label: "iterateAgentLogs",
    method: "GET",
    path: "/v1/agents/voice-bot/logs",
    invoke: (c) => collect(c.iterateAgentLogs({ agentName: "voice-bot" })),
  },
  { label: "getSecretSet", method: "GET", path: "/v1/secrets/team-secrets", invoke: (c) => c.getSecretSet("team-secrets") },
];

interface StatusCase {
  status: number;
  code: string;
  message: string;
  cls: typeof ApiError;
  name: string;
  headers?: Record<string, string>;
}

const STATUSES: StatusCase[] = [
  { status: 400, code: "GENERIC_BAD_REQUEST", message: "image: must carry a tag", cls: BadRequestError, name: "BadRequestError" },
  { status: 401, code: "UNAUTHORIZED", message: "invalid API key", cls: AuthenticationError, name: "AuthenticationError" },
  { status: 404, code: "NOT_FOUND", message: "no such thing", cls: NotFoundError, name: "NotFoundError" },
  { status: 409, code: "CONFLICT", message: "serviceName taken", cls: ConflictError, name: "ConflictError" },
  {
    status: 429,
    code: "RATE_LIMITED",
    message: "slow down",
    cls: RateLimitError,
    name: "RateLimitError",
    headers: { "retry-after": "7" },
  },
  { status: 500, code: "INTERNAL_SERVER_ERROR", message: "boom", cls: ServerError, name: "ServerError" },
  { status: 503, code: "UNAVAILABLE", message: "try later", cls: ServerError, name: "ServerError" },
  { status: 418, code: "TEAPOT", message: "I am a teapot", cls: ApiError, name: "ApiError" },
];

let h: Harness;
beforeEach(() => {
  h = makeHarness({ maxRetries: 0 });
});
afterEach(async () => {
  await h.finish();
});

const samePath = (path: string) => (p: string) => p.split("?")[0] === path;

describe.each(METHODS)("$label", (m) => {
  it.each(STATUSES)("$status -> $name with status, code, message, method and path", async (s) => {
    h.api
      .intercept({ path: samePath(m.path), method: m.method })
      .reply(s.status, errorJson(s.code, s.message), { headers: { "content-type": "application/json", ...s.headers } });
    // An unanswered create (5xx) is followed by a read-back of the agent; it is not there.
    const readsBack = m.label === "createAgent" && s.status >= 500;
    if (readsBack) {
      h.api
        .intercept({ path: "/v1/agents/voice-bot", method: "GET" })
        .reply(404, errorJson("NOT_FOUND", "agent not found"), JSON_REPLY);
    }

    const error = await rejectionOf(m.invoke(h.client));

    expect(error).toBeInstanceOf(s.cls);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(AgentHostingError);
    expect(Object.getPrototypeOf(error)).toBe(s.cls.prototype);
    const e = error as ApiError;
    expect(e.name).toBe(s.name);
    expect(e.status).toBe(s.status);
    expect(e.code).toBe(s.code);
    expect(e.serviceMessage).toBe(s.message);
    expect(e.method).toBe(m.method);
    expect(e.path).toBe(m.path);
    expect(e.message).toBe(`${m.method} ${m.path} failed with ${s.status} ${s.code}: ${s.message}`);
    if (s.status === 429) expect((e as RateLimitError).retryAfterSeconds).toBe(7);
    expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual(
      readsBack ? [`${m.method} ${m.path}`, "GET /v1/agents/voice-bot"] : [`${m.method} ${m.path}`],
    );
  });
});

describe("error bodies and headers beyond the documented JSON", () => {
  it("403 is an AuthenticationError too", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(403, errorJson("FORBIDDEN", "no"), JSON_REPLY);
    const error = await rejectionOf(h.client.getAgent("voice-bot"));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as ApiError).status).toBe(403);
  });

  it("a non-JSON error body (a proxy's HTML page) becomes the message, with no code", async () => {
    h.api
      .intercept({ path: "/v1/agents/voice-bot", method: "GET" })
      .reply(502, "  <html>Bad Gateway</html>\n", { headers: { "content-type": "text/html" } });
    const error = (await rejectionOf(h.client.getAgent("voice-bot"))) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.status).toBe(502);
    expect(error.code).toBeUndefined();
    expect(error.serviceMessage).toBe("<html>Bad Gateway</html>");
    expect(error.message).toBe("GET /v1/agents/voice-bot failed with 502: <html>Bad Gateway</html>");
  });

  it("an empty error body says so", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).reply(500, "");
    const error = (await rejectionOf(h.client.deleteAgent("voice-bot"))) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.serviceMessage).toBe("(empty body)");
  });

  it("a long raw error body is cut to 300 characters", async () => {
    h.api.intercept({ path: "/v1/secrets/team-secrets", method: "GET" }).reply(400, "x".repeat(5000));
    const error = (await rejectionOf(h.client.getSecretSet("team-secrets"))) as BadRequestError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.serviceMessage).toBe("x".repeat(300));
  });

  it("JSON of an error keeps the safe fields only", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(404, errorJson("NOT_FOUND", "gone"), JSON_REPLY);
    const error = await rejectionOf(h.client.getAgent("voice-bot"));
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "NotFoundError",
      message: "GET /v1/agents/voice-bot failed with 404 NOT_FOUND: gone",
      status: 404,
      code: "NOT_FOUND",
      method: "GET",
      path: "/v1/agents/voice-bot",
    });
  });

  it("a 429 without Retry-After has no retryAfterSeconds", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).reply(429, errorJson("RATE_LIMITED", "slow"), JSON_REPLY);
    const error = (await rejectionOf(h.client.getAgent("voice-bot"))) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it("Retry-After as delta-seconds or as an HTTP date", () => {
    const now = Date.parse("2024-05-01T10:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2);
    expect(parseRetryAfter("1.5", now)).toBe(1.5);
    expect(parseRetryAfter("Wed, 01 May 2024 10:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Wed, 01 May 2024 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(["4", "9"], now)).toBe(4);
  });
});

describe("transport failures", () => {
  it("ECONNREFUSED -> ConnectionError with notSent = true", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "GET" }).replyWithError(refused());
    const error = (await rejectionOf(h.client.getAgent("voice-bot"))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(AgentHostingError);
    expect(error.notSent).toBe(true);
    expect(error.method).toBe("GET");
    expect(error.path).toBe("/v1/agents/voice-bot");
    expect(error.message).toBe("GET /v1/agents/voice-bot: connection failed (ECONNREFUSED)");
  });

  it("ECONNRESET -> ConnectionError with notSent = false (the request may have arrived)", async () => {
    h.api.intercept({ path: "/v1/agents/voice-bot", method: "DELETE" }).replyWithError(reset());
    const error = (await rejectionOf(h.client.deleteAgent("voice-bot"))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.notSent).toBe(false);
    expect(error.method).toBe("DELETE");
  });

  it("a code wrapped in the cause of an undici socket error is found", async () => {
    const wrapped = Object.assign(new Error("other side closed"), {
      code: "UND_ERR_SOCKET",
      cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }),
    });
    h.api.intercept({ path: "/v1/secrets/team-secrets", method: "GET" }).replyWithError(wrapped);
    const error = (await rejectionOf(h.client.getSecretSet("team-secrets"))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.notSent).toBe(true);
  });

  it("a headers timeout -> TimeoutError naming the limit", async () => {
    await h.finish();
    h = makeHarness({ maxRetries: 0, timeoutMs: 1234 });
    h.api
      .intercept({ path: (p: string) => p.startsWith("/v1/agents/voice-bot/logs"), method: "GET" })
      .replyWithError(headersTimeout());
    const error = (await rejectionOf(h.client.getAgentLogs({ agentName: "voice-bot" }))) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.method).toBe("GET");
    expect(error.path).toBe("/v1/agents/voice-bot/logs");
    expect(error.message).toBe("GET /v1/agents/voice-bot/logs: no answer within 1234 ms");
  });
});
