/**
 * The health check's watch of a deployment's logs against the emulator: an
 * `unhealthy` image's panic line is found and quoted, a healthy deployment
 * passes after watchSeconds, another deployment's line does not count, and a
 * limit shorter than watchSeconds leaves the check unfinished.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentHostingClient } from "../../src/client/client";
import { watchDeploymentHealth, type HealthCheck } from "../../src/resources/agent/rollout-wait";
import { startEmu, waitFor, type Emu } from "../support/emulator-fixture";

let emu: Emu;
let client: AgentHostingClient;

beforeAll(async () => {
  emu = await startEmu();
  client = emu.newClient();
});
afterAll(async () => emu?.close());

const PANIC: HealthCheck = { failOnLogQuery: "panic", watchSeconds: 3 };

async function readyAgent(name: string, image: string): Promise<string> {
  const created = await client.createAgent({ serviceName: name, image });
  await waitFor(`${name} ready`, async () => (await client.getAgent(name)).ready);
  return created.activeDeploymentId;
}

const watch = (agentName: string, deploymentId: string, check = PANIC, limitMs?: number) =>
  watchDeploymentHealth({ client, agentName, deploymentId, check, signal: new AbortController().signal, ...(limitMs === undefined ? {} : { limitMs }) });

describe("watchDeploymentHealth", () => {
  it("finds the panic line an `unhealthy` image logs after it is ready, and quotes it", async () => {
    const deploymentId = await readyAgent("sick-watch", "registry.example.com/bot:unhealthy");
    const lines: string[] = [];
    const result = await watchDeploymentHealth({ client, agentName: "sick-watch", deploymentId, check: PANIC, signal: new AbortController().signal, onStart: (l) => void lines.push(l) });
    expect(result.healthy).toBe(false);
    expect(result.healthy ? [] : result.found.map((f) => f.log)).toEqual([`panic: voice pipeline lost its model connection in deployment ${deploymentId}`]);
    expect(lines).toEqual([`agent "sick-watch": deployment ${deploymentId} is ready; watching its logs for "panic" for 3 s (healthCheck)`]);
  });

  it("passes a healthy deployment once watchSeconds are over, and counts only lines of the deployment it watches", async () => {
    const sick = await readyAgent("mixed-watch", "registry.example.com/bot:unhealthy");
    await waitFor("the panic line", async () => (await client.getAgentLogs({ agentName: "mixed-watch", query: "panic" })).total.value === 1);
    // The emulator rolls updates: the update answers its new deployment as the desired one.
    const healthy = String((await client.updateAgent("mixed-watch", { image: "registry.example.com/bot:2" })).desiredDeploymentId);
    expect(healthy).not.toBe(sick);
    expect(await watch("mixed-watch", healthy, { failOnLogQuery: "panic", watchSeconds: 1 })).toEqual({ healthy: true });
  });

  it("is unfinished, a failure, when the operation's limit ends before watchSeconds", async () => {
    const deploymentId = await readyAgent("short-watch", "registry.example.com/bot:3");
    const result = await watch("short-watch", deploymentId, { failOnLogQuery: "panic", watchSeconds: 30 }, 300);
    expect(result).toMatchObject({ healthy: false, found: [], unfinished: true });
  });
});
