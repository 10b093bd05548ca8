/**
 * A pipeline's `pulumi up` must not lose an agent, create one twice or leak
 * the key when the network or the service misbehaves: faults injected in the
 * emulator, an up killed midway (and the checkpoint sidecar a kill can leave
 * empty), the emulator restarted midway, and load
 * against a rate limit (16 agents at a time, with no Node warning on the
 * stack's row). Only the load case destroys its stack (50 agents, 16 at a
 * time): a destroy of the others' converged stacks shows nothing more.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../src/client/client";
import { EmulatorControl } from "../../src/emulator";
import { agentsInState, expectNoKeyInStack } from "./support/secrets";
import { useEmulator } from "../support/emulator-fixture";
import { unusedPort } from "../support/closed-port";
import { useStacks } from "./support/e2e-fixture";
import { exportedState, repoRoot, type StackHandle } from "./support/stack";
import { succeeded } from "./support/succeeded";

const API_KEY = "e2e-reliability-SECRET-3c1d";
const makeStack = useStacks();

function agents(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    resource: `${prefix}-${i}`,
    args: { serviceName: `${prefix}-${i}`, image: "registry.example.com/bot:1", autoScaling: { minAgents: 1, maxAgents: 2 } },
  }));
}

function names(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${i}`).sort();
}

async function serviceAgents(control: EmulatorControl): Promise<string[]> {
  return (await control.listAgents()).agents.map((a) => a.name).sort();
}

async function conflicts(control: EmulatorControl): Promise<number> {
  return (await control.requests()).requests.filter((r) => r.status === 409).length;
}

const newStack = (name: string, url: string): StackHandle => makeStack(name, { baseUrl: url, apiKey: API_KEY });

describe("faults during pulumi up", () => {
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 400 });

  it("500s, 429s, slow answers and dropped connections: up converges, nothing twice, nothing orphaned, retries reported", async () => {
    const texts: string[] = [];
    await fx.control.injectFault({ method: "POST", path: "/v1/agents", kind: "status", status: 429, count: 2 });
    await fx.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-before", count: 1 });
    await fx.control.injectFault({ method: "POST", path: "/v1/agents", kind: "drop-after", count: 1 });
    await fx.control.injectFault({ method: "POST", path: "/v1/agents", kind: "status", status: 503, count: 1 });
    await fx.control.injectFault({ method: "GET", path: "/v1/agents/*", kind: "status", status: 500, count: 3 });
    await fx.control.injectFault({ method: "GET", path: "/v1/agents/*", kind: "delay", delayMs: 700, count: 4 });
    const stack = newStack("faults", fx.emulator.url);
    const up = await stack.run("up", { params: { agents: agents("faulty", 5) } });
    texts.push(up.engineOutput, up.error ?? "");
    expect(up.error).toBeUndefined();
    expect((await fx.control.stats()).faultsFired).toBe(12);
    expect(await serviceAgents(fx.control)).toEqual(names("faulty", 5));
    expect(await agentsInState(stack)).toEqual(names("faulty", 5));
    expect(await conflicts(fx.control)).toBe(0);
    expect(up.engineOutput).toMatch(/agent-hosting: POST \/v1\/agents answered 429/);
    expect(up.engineOutput).toMatch(/agent-hosting: GET \/v1\/agents\/faulty-\d answered 500/);
    await expectNoKeyInStack(stack, API_KEY, texts);
  });
});

describe("an up killed in the middle of creates", () => {
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 3000 });

  it("after pulumi cancel and the README's repair of pending creates, the next up converges to exactly the declared agents, none posted twice", async () => {
    const texts: string[] = [];
    const stack = newStack("killed", fx.emulator.url);
    const params = { agents: agents("killed", 8) };
    const child = stack.start("up", { params, parallel: 4 });
    const deadline = Date.now() + 60_000;
    while ((await serviceAgents(fx.control)).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect((await serviceAgents(fx.control)).length).toBeGreaterThanOrEqual(3);
    process.kill(-(child.pid as number), "SIGKILL");
    await new Promise((r) => child.once("close", r));
    killProcessesIn(stack.workDir); // the killed CLI's plugins (the dynamic provider) outlive it
    const createdBeforeKill = await serviceAgents(fx.control);
    expect(createdBeforeKill.length).toBeLessThan(8);

    let up = await stack.run("up", { params });
    texts.push(up.engineOutput, up.error ?? "");
    if (!up.ok && /failed to load checkpoint: EOF/.test(`${up.error}`)) {
      // The kill landed while the file backend rewrote the checkpoint's sidecar (README, failure modes).
      expect(removeEmptySidecars(join(stack.workDir, ".state")).length).toBeGreaterThan(0);
      up = await stack.run("up", { params });
      texts.push(up.engineOutput, up.error ?? "");
    }
    // The killed update left its lock and the creates it had begun as pending: the README's repair
    // ("A create killed before the state heard of it"), step by step, its jq filter taken from the README.
    expect(up.ok).toBe(false);
    expect(`${up.error}`).toMatch(/locked/i);
    const cancel = await stack.run("cancel");
    texts.push(cancel.error ?? "");
    const pending = await pendingCreates(stack);
    expect(pending.length).toBeGreaterThan(0);
    const repaired = await repairWithReadmeJq(stack);
    const imported = await stack.run("import-state", { stateFile: repaired });
    expect(imported.error).toBeUndefined();
    const refresh = await stack.run("refresh");
    texts.push(refresh.engineOutput, refresh.error ?? "");
    expect(refresh.error).toBeUndefined();
    expect(await pendingCreates(stack)).toEqual([]);
    expect(await agentsInState(stack)).toEqual(createdBeforeKill);
    up = await stack.run("up", { params });
    texts.push(up.engineOutput, up.error ?? "");
    expect(up.error).toBeUndefined();
    expect(await serviceAgents(fx.control)).toEqual(names("killed", 8));
    expect(await agentsInState(stack)).toEqual(names("killed", 8));
    // Each agent was posted once: the imported ones were not posted again.
    expect((await fx.control.stats()).byRoute["POST /v1/agents"]).toBe(8);
    expect(await conflicts(fx.control)).toBe(0);
    await expectNoKeyInStack(stack, API_KEY, texts);
  });

  it("a checkpoint sidecar emptied as a kill can leave it: every command fails until it is removed, as the README says", async () => {
    const stack = newStack("sidecar", fx.emulator.url);
    const params = { agents: agents("sidecar", 1) };
    succeeded(await stack.run("up", { params }));
    const sidecars = readdirSync(join(stack.workDir, ".state"), { recursive: true, encoding: "utf8" }).filter((f) =>
      /\/stacks\/.+\.json\.attrs$/.test(f),
    );
    expect(sidecars).toHaveLength(1);
    writeFileSync(join(stack.workDir, ".state", sidecars[0] as string), ""); // what a kill between truncate and write leaves
    const broken = await stack.run("preview", { params });
    expect(broken.ok).toBe(false);
    expect(`${broken.error}`).toContain("failed to load checkpoint: EOF");
    expect(removeEmptySidecars(join(stack.workDir, ".state"))).toHaveLength(1);
    const repaired = await stack.run("preview", { params });
    expect(repaired.error).toBeUndefined();
    expect(repaired.changeSummary).toEqual({ same: 2 });
  });
});

/**
 * Removes the empty `.attrs` files under `dir`, as the README tells a user
 * to. The file backend (gocloud's fileblob) writes a checkpoint atomically
 * but truncates, then rewrites, its `.attrs` sidecar; a SIGKILL in between
 * leaves it empty, and every later command fails with "failed to load
 * checkpoint: EOF". Without the sidecar the checkpoint reads as it is.
 */
function removeEmptySidecars(dir: string): string[] {
  const removed: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, entry);
    if (path.endsWith(".attrs") && statSync(path).size === 0) {
      rmSync(path);
      removed.push(path);
    }
  }
  return removed;
}

/** The creates a killed run left pending in the state: each resource's URN and the agent's serviceName (its ID). */
async function pendingCreates(stack: StackHandle): Promise<{ urn: string; serviceName: string }[]> {
  const exported = (await exportedState(stack)) as { deployment?: { pending_operations?: { type: string; resource: { urn: string; inputs?: { serviceName?: string } } }[] } };
  return (exported.deployment?.pending_operations ?? [])
    .filter((op) => op.type === "creating")
    .map((op) => ({ urn: op.resource.urn, serviceName: String(op.resource.inputs?.serviceName) }));
}

/**
 * The README's repair of pending creates: `pulumi stack export`, its jq
 * filter (read from the README's block), then the file to `pulumi stack import`.
 */
async function repairWithReadmeJq(stack: StackHandle): Promise<string> {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const filter = /^jq '(.+)' state\.json > repaired\.json$/m.exec(readme)?.[1];
  expect(filter, "the README's jq line").toBeDefined();
  const exported = join(stack.workDir, "state.json");
  const repaired = join(stack.workDir, "repaired.json");
  writeFileSync(exported, JSON.stringify(await exportedState(stack))); // what `pulumi stack export --file` writes
  writeFileSync(repaired, execFileSync("jq", [filter as string, exported], { encoding: "utf8" }));
  return repaired;
}

/** Kills the processes whose working directory is `dir` (plugins the engine started there). */
function killProcessesIn(dir: string): void {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === dir) process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone, or not ours to read
    }
  }
}

function startBin(port: number, stateFile: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      join(repoRoot, "dist/emulator/bin.js"),
      "--port", String(port), "--api-key", API_KEY, "--ready-after-ms", "2500", "--state-file", stateFile,
    ]);
    child.stdout.once("data", (d: Buffer) =>
      /listening on/.test(d.toString()) ? resolve(child) : reject(new Error(d.toString())),
    );
    child.once("error", reject);
  });
}

describe("the emulator restarted on its --state-file while creates are in flight", () => {
  it("nothing acknowledged is lost, nothing is created twice, and the same up converges", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ah-restart-"));
    const stateFile = join(dir, "state.json");
    const port = await unusedPort();
    const url = `http://127.0.0.1:${port}/v1`;
    const control = new EmulatorControl(`http://127.0.0.1:${port}`);
    const texts: string[] = [];
    const count = 8;
    let emulator = await startBin(port, stateFile);
    try {
      const stack = newStack("restart", url);
      const params = { agents: agents("restart", count) };
      // Two creates at a time, each waiting 2.5 s for readiness: the stop lands while creates are in flight.
      const upPromise = stack.run("up", { params, parallel: 2 });
      const deadline = Date.now() + 120_000;
      while ((await serviceAgents(control).catch(() => [])).length < 2 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const acknowledged = await serviceAgents(control);
      expect(acknowledged.length, "agents created before the stop").toBeGreaterThanOrEqual(2);
      expect(acknowledged.length, "agents created before the stop").toBeLessThan(count);
      // A crash, not a clean stop: whatever the emulator acknowledged must already be on disk.
      emulator.kill("SIGKILL");
      await new Promise((r) => emulator.once("close", r));
      await new Promise((r) => setTimeout(r, 1000));
      emulator = await startBin(port, stateFile);
      const reloaded = await serviceAgents(control);
      for (const name of acknowledged) expect(reloaded, `${name} survived the restart`).toContain(name);

      const up = await upPromise;
      texts.push(up.engineOutput, up.error ?? "");
      expect(up.error).toBeUndefined();
      expect(await agentsInState(stack)).toEqual(names("restart", count));
      const { agents: live } = await control.listAgents();
      expect(live.map((a) => a.name).sort()).toEqual(names("restart", count));
      // Created once each: one deployment per agent, no create answered 409 after the restart.
      for (const agent of live) expect(agent.deployments, agent.name).toHaveLength(1);
      const after = (await control.requests()).requests;
      expect(after.filter((r) => r.status === 409)).toEqual([]);
      const postsAfter = after.filter((r) => r.method === "POST" && r.path === "/v1/agents").length;
      expect(postsAfter).toBeLessThanOrEqual(count - acknowledged.length);
      await expectNoKeyInStack(stack, API_KEY, texts);
    } finally {
      emulator.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A warning Node prints on a process's stderr, e.g. "(node:4242) MaxListenersExceededWarning: Possible EventTarget memory leak detected". */
const NODE_WARNING = /\(node:\d+\) \w*Warning/;

describe("load against a rate limit", () => {
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 1000 });

  it("50 agents with --parallel 16: all created, no duplicates, every 429 retried within its budget", async () => {
    const texts: string[] = [];
    await fx.control.setRateLimit({ requestsPerWindow: 25, windowMs: 1000, retryAfterSeconds: 1 });
    const stack = newStack("load", fx.emulator.url);
    const up = await stack.run("up", { params: { agents: agents("load", 50) }, parallel: 16 });
    texts.push(up.engineOutput, up.error ?? "");
    expect(up.error).toBeUndefined();
    const stats = await fx.control.stats();
    expect(stats.rateLimited).toBeGreaterThan(0);
    expect(await serviceAgents(fx.control)).toEqual(names("load", 50));
    expect(await agentsInState(stack)).toEqual(names("load", 50));
    expect(await conflicts(fx.control)).toBe(0);
    expect(up.engineOutput).toMatch(/answered 429 RATE_LIMITED/);
    // The provider process's stderr is shown on the stack's row: 16 agents waiting at once print no Node warning there.
    expect(up.engineOutput).not.toMatch(NODE_WARNING);
    await fx.control.setRateLimit({ disabled: true });
    await expectNoKeyInStack(stack, API_KEY, texts);
    const destroy = await stack.run("destroy", { parallel: 16 });
    succeeded(destroy);
    expect(destroy.engineOutput).not.toMatch(NODE_WARNING);
    expect(await serviceAgents(fx.control)).toEqual([]);
  });

  it("the emulator's request log redacts the authorization header", async () => {
    const client = new AgentHostingClient({ baseUrl: fx.emulator.url, apiKey: API_KEY });
    await client.getAgent("redaction-probe").catch(() => undefined);
    await client.close();
    const { requests } = await fx.control.requests();
    const probe = requests.filter((r) => r.path === "/v1/agents/redaction-probe");
    expect(probe.length).toBeGreaterThan(0);
    for (const r of requests) expect(JSON.stringify(r)).not.toContain(API_KEY);
    for (const r of probe) expect(r.headers["authorization"]).toBe("Bearer [REDACTED]");
  });
});
