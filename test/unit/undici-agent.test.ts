/**
 * The client's undici Agent, loaded without undici's index
 * (src/client/undici-agent.ts): the same class as the index's, with the
 * Dispatcher's request, and the index stays unloaded.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import * as undici from "undici";
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/client/undici-agent";

describe("the client's undici Agent", () => {
  it("is undici's Agent, with request, stream and the other dispatcher calls", async () => {
    expect(Agent).toBe(undici.Agent);
    const agent = new Agent({ connections: 1 });
    for (const call of ["request", "stream", "pipeline", "upgrade", "connect"]) expect(typeof (agent as unknown as Record<string, unknown>)[call]).toBe("function");
    await agent.close();
  });

  it("loads the agent and the request API but not undici's index (fetch, WebSocket, mocks)", () => {
    const script = [
      `const { Agent } = require(${JSON.stringify(join(__dirname, "../../dist/client/undici-agent.js"))});`,
      `if (typeof new Agent().request !== "function") throw new Error("no request");`,
      `const loaded = Object.keys(require.cache).filter((f) => f.includes("undici"));`,
      `process.stdout.write(JSON.stringify(loaded));`,
    ].join("\n");
    const loaded = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as string[];
    expect(loaded.some((f) => f.endsWith("/lib/dispatcher/agent.js"))).toBe(true);
    expect(loaded.some((f) => /undici[\\/]index\.js$/.test(f))).toBe(false);
    expect(loaded.some((f) => f.includes("/lib/web/fetch/"))).toBe(false);
  });
});
