/**
 * The cases the fault campaign's issue names on the native path: a Pulumi
 * YAML program run with the CLI in its directory (the plugin installed from
 * its tarball), read from the emulator's request log. The engine's
 * `customTimeouts.delete` cuts a drain short: the sessions are cut by one
 * DELETE, with a warning saying so; SIGINT of `pulumi up` while it waits
 * for a deployment: the CLI stops, the state holds what serves or the
 * pending mark, and the next `up` converges.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RequestRecord } from "../../src/emulator/request-log";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { useEmulator, waitFor } from "../support/emulator-fixture";
import { initStackWithConfig, pulumiCommands, type PulumiCommands } from "./support/pulumi-command";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "campaign-native-KEY-41c8";
const IMAGE = (tag: string) => `registry.example.com/bot:${tag}`;
const dirs: StackDir[] = [];

afterAll(() => {
  for (const dir of dirs) dir.remove();
});

describe("the campaign's cases on the native path", () => {
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 1000 });
  const log = async (): Promise<RequestRecord[]> => (await fx.control.requests()).requests;
  const ofAgent = (records: RequestRecord[], name: string) => records.filter((r) => r.path === `/v1/agents/${name}`);

  /** A YAML program with one Agent, its stack `dev` pointed at the emulator. */
  async function newProgram(label: string): Promise<{ dir: StackDir; env: NodeJS.ProcessEnv; cli: PulumiCommands; write(properties: Record<string, unknown>, options?: Record<string, unknown>): void }> {
    const dir = stackDir(`campaign-native-${label}`);
    dirs.push(dir);
    const env = yamlProgramEnv(dir.env);
    const cli = pulumiCommands(() => ({ cwd: dir.workDir, env }));
    const write = (properties: Record<string, unknown>, options?: Record<string, unknown>) => {
      const resources = { bot: { type: "agent-hosting:index:Agent", properties, ...(options ? { options } : {}) } };
      // JSON is YAML: the document is written as JSON.
      writeFileSync(join(dir.workDir, "Pulumi.yaml"), JSON.stringify({ name: `campaign-native-${label}`, runtime: "yaml", resources }, null, 2));
    };
    write({ serviceName: `${label}-bot`, image: IMAGE("1") });
    await initStackWithConfig(cli, fx.emulator);
    return { dir, env, cli, write };
  }

  it("customTimeouts.delete cuts the drain short: the reads, then one DELETE as the engine's limit ends, and a warning naming the count and the limit", async () => {
    const program = await newProgram("cut-short");
    program.write({ serviceName: "cut-short-bot", image: IMAGE("1"), drainSeconds: 600 }, { customTimeouts: { delete: "4s" } });
    await program.cli.ok("up", "--yes");
    await fx.control.setSessions("cut-short-bot", 2);
    const start = (await log()).length;
    const destroy = await program.cli.run("destroy", "--yes");
    expect(destroy.code, destroy.out).toBe(0);
    expect(destroy.out).toContain(`agent "cut-short-bot": 2 live sessions were cut by the delete (they outlasted drainSeconds 600 s, cut short by the engine's customTimeouts.delete)`);
    const requests = ofAgent((await log()).slice(start), "cut-short-bot");
    const deleteAt = requests.findIndex((r) => r.method === "DELETE");
    expect(deleteAt).toBeGreaterThan(0);
    expect(requests.slice(0, deleteAt).every((r) => r.method === "GET")).toBe(true);
    expect(requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
    expect(requests.slice(deleteAt + 1)).toEqual([]);
    expect((await fx.control.listAgents()).agents.map((a) => a.name)).not.toContain("cut-short-bot");
  });

  it("SIGINT of pulumi up while it waits for a deployment: the CLI stops, the state holds what serves or the pending mark, and the next up converges", async () => {
    const program = await newProgram("sigint");
    const base = { serviceName: "sigint-bot", readyTimeoutSeconds: 120 };
    program.write({ ...base, image: IMAGE("1") });
    await program.cli.ok("up", "--yes");
    program.write({ ...base, image: IMAGE("fail") });
    const start = (await log()).length;
    const child = spawn("pulumi", ["up", "--yes"], { cwd: program.dir.workDir, env: program.env, detached: true });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
    await waitFor("the up's update POST and a read after it", async () => {
      const requests = ofAgent((await log()).slice(start), "sigint-bot");
      const posted = requests.findIndex((r) => r.method === "POST");
      return posted >= 0 && requests.slice(posted + 1).some((r) => r.method === "GET");
    }, 60_000, 20);
    process.kill(-(child.pid as number), "SIGINT");
    const code = await closed;
    expect(code, out).not.toBe(0);
    expect(out).not.toContain(API_KEY);
    const exported = JSON.parse(await program.cli.ok("stack", "export")) as { deployment: { resources?: { type: string; outputs?: Record<string, unknown> }[] } };
    const outputs = exported.deployment.resources?.find((r) => r.type === "agent-hosting:index:Agent")?.outputs ?? {};
    const live = await fx.client.getAgent("sigint-bot");
    expect(outputs["__pending"] === "update" || outputs["activeDeploymentId"] === live.activeDeploymentId, JSON.stringify(outputs)).toBe(true);
    program.write({ ...base, image: IMAGE("2") });
    await program.cli.ok("up", "--yes");
    await program.cli.ok("preview", "--expect-no-changes");
    const served = (await fx.control.listAgents()).agents.find((a) => a.name === "sigint-bot");
    expect(served?.deployments.find((d) => d.id === served.activeDeploymentId)?.image).toBe(IMAGE("2"));
    await program.cli.ok("destroy", "--yes");
  });
});
