/**
 * Answers that break the contract, from a real HTTP server: missing fields,
 * wrong types, not JSON, a truncated body, a huge body, an HTML error page.
 * The client raises ResponseValidationError or a transport error, never a
 * crash; the provider fails the operation and leaves nothing half-recorded.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import type { ServiceAgent as Agent } from "../../src/client/answer-types";
import { ConnectionError, ResponseValidationError, ServerError } from "../../src/client/errors";
import { dynamicProvider as impl } from "../support/dynamic-provider";
import { API_KEY, agentJson } from "../support/fixtures";

const agent = agentJson({ name: "bot", image: "bot:1", ready: true, maxReplicas: 1 });

type Answer = (res: ServerResponse) => void;
const json = (body: unknown): Answer => (res) => {
  const text = JSON.stringify(body);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
};
const answers: Record<string, Answer> = {
  "missing-field": json({ ...agent, ready: undefined }),
  "wrong-type": json({ ...agent, activeDeploymentId: 42 }),
  "deep-wrong-type": json({ ...agent, deployment: { ...agent.deployment, manifest: { ...agent.deployment.manifest, spec: { ...agent.deployment.manifest.spec, image: null } } } }),
  "bad-api-version": json({ ...agent, deployment: { ...agent.deployment, manifest: { ...agent.deployment.manifest, apiVersion: "v2" } } }),
  "not-json": (res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("ok, created");
  },
  truncated: (res) => {
    const text = JSON.stringify(agent);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.write(text.slice(0, 40));
    res.socket?.destroy();
  },
  "truncated-chunked": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(agent).slice(0, 60));
  },
  huge: (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 20 && res.write(chunk)) sent++;
      if (sent < 20) res.once("drain", pump);
      else res.end("{}");
    };
    pump();
  },
  "html-502": (res) => {
    res.writeHead(502, { "content-type": "text/html" });
    res.end("<html><body>Bad Gateway</body></html>");
  },
  "logs-bad-entry": json({ total: { value: 2, relation: "eq" }, logs: [{ log: "a", timestamp: "t" }, { log: 5, timestamp: "t" }] }),
};

let server: Server;
let baseUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const key = (req.url ?? "").split("/")[3] ?? "";
    (answers[key] ?? json(agent))(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client(): AgentHostingClient {
  return new AgentHostingClient({ baseUrl, apiKey: API_KEY, maxRetries: 1, retryBaseDelayMs: 1 });
}

async function failure(call: (c: AgentHostingClient) => Promise<unknown>): Promise<Error> {
  const c = client();
  try {
    const result = await call(c).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(result).toBeInstanceOf(Error);
    expect(`${String(result)} ${JSON.stringify(result)} ${(result as Error).stack}`).not.toContain(API_KEY);
    return result as Error;
  } finally {
    await c.close();
  }
}

describe("responses that break the contract", () => {
  it.each([
    ["missing-field", "ready"],
    ["wrong-type", "activeDeploymentId"],
  ])("%s → ResponseValidationError naming %s", async (route, field) => {
    const error = await failure((c) => c.getAgent(route));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).fields).toContain(field);
    expect(error.message).toContain(field);
  });

  // The package does not rely on the manifest's members: an odd one is kept as the service sent it.
  it.each([
    ["deep-wrong-type", "deployment.manifest.spec.image", (a: Agent) => a.deployment?.manifest?.spec?.["image"], null],
    ["bad-api-version", "deployment.manifest.apiVersion", (a: Agent) => a.deployment?.manifest?.apiVersion, "v2"],
  ])("%s → accepted, %s kept as sent", async (route, _field, read, value) => {
    const c = client();
    try {
      expect(read(await c.getAgent(route))).toBe(value);
    } finally {
      await c.close();
    }
  });

  it("a body that is not JSON → ResponseValidationError", async () => {
    expect(await failure((c) => c.getAgent("not-json"))).toBeInstanceOf(ResponseValidationError);
  });

  it("a body cut off mid-way (socket closed) → ConnectionError", async () => {
    expect(await failure((c) => c.getAgent("truncated"))).toBeInstanceOf(ConnectionError);
  });

  it("a complete but truncated JSON document → ResponseValidationError", async () => {
    const error = await failure((c) => c.getAgent("truncated-chunked"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toMatch(/not JSON/);
  });

  it("a body over 16 MiB → ResponseValidationError, not an out-of-memory", async () => {
    const error = await failure((c) => c.getAgent("huge"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toMatch(/larger than/);
  });

  it("an HTML error page → ServerError carrying the status", async () => {
    const error = await failure((c) => c.getAgent("html-502"));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(502);
  });

  it("a log page with a bad entry → ResponseValidationError naming the entry", async () => {
    const error = await failure((c) => c.getAgentLogs({ agentName: "logs-bad-entry" }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).fields).toEqual(["logs.1.log"]);
  });
});

describe("the provider facing a broken service", () => {
  it("read with a malformed answer fails instead of writing a wrong state", async () => {
    process.env["AGENT_HOSTING_API_KEY"] = API_KEY;
    process.env["AGENT_HOSTING_BASE_URL"] = baseUrl;
    try {
      await impl.configure(undefined);
      const previous = { serviceName: "wrong-type", image: "bot:1", activeDeploymentId: "dep-1" };
      await expect(impl.read("wrong-type", previous)).rejects.toBeInstanceOf(ResponseValidationError);
      await expect(impl.read("missing-field", previous)).rejects.toThrow(/ready/);
    } finally {
      delete process.env["AGENT_HOSTING_API_KEY"];
      delete process.env["AGENT_HOSTING_BASE_URL"];
    }
  });
});
