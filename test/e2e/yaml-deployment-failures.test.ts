/**
 * When a deployment fails, on the native plugin: a Pulumi YAML program run
 * with the CLI from its directory (the plugin installed from its tarball,
 * Pulumi YAML's language host from pulumi-yaml.sh), a preview before
 * every up. A never-ready update is rolled back, a failed create with
 * rollback leaves nothing, the engine's `customTimeouts` (update and create)
 * ends the wait long before `readyTimeoutSeconds`, and an unhealthy deployment
 * kept (onFailure keep) stays running and in the state; on the emulator's own
 * reading (updates roll). What the provider core decides alone (a health
 * check's line rolled back, a clean update past an old deployment's line) runs
 * once under the CLI, on the dynamic provider (deployment-failures.test.ts);
 * this file shows what the plugin's host adds: its errors, its state after a
 * failed step, the engine's timeouts, its preview rows.
 * test/integration/matrix-failures.test.ts runs each case through the provider
 * core, which both hosts call, on every reading and rollout.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { useEmulator } from "../support/emulator-fixture";
import { initStackWithConfig, pulumiCommands } from "./support/pulumi-command";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "yaml-FAILURES-key-19be";
const GOOD = "registry.example.com/bot:1";

const programs: StackDir[] = [];

afterAll(() => {
  for (const p of programs) p.remove();
});

describe("a rolling service", () => {
  const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 300 });

  interface Program {
    /** Writes Pulumi.yaml with one Agent of these properties (YAML lines) and resource options. */
    write(properties: Record<string, unknown>, options?: Record<string, unknown>): void;
    ok(...args: string[]): Promise<string>;
    run(...args: string[]): Promise<{ code: number; out: string }>;
    /** The Agent's outputs in the stack's state. */
    state(): Promise<Record<string, unknown> | undefined>;
  }

  /** A program directory with its own stack "dev", configured for the emulator. */
  async function newProgram(label: string): Promise<Program> {
    const dir = stackDir(`yaml-failures-${label}`);
    programs.push(dir);
    const env = yamlProgramEnv(dir.env);
    const cli = pulumiCommands(() => ({ cwd: dir.workDir, env }));
    const { ok } = cli;
    const program: Program = {
      write(properties, options) {
        const document = {
          name: `agent-hosting-yaml-${label}`,
          runtime: "yaml",
          resources: { bot: { type: "agent-hosting:index:Agent", properties, ...(options ? { options } : {}) } },
          outputs: { deploymentId: "${bot.activeDeploymentId}" },
        };
        // JSON is YAML: the document is written as JSON.
        writeFileSync(join(dir.workDir, "Pulumi.yaml"), JSON.stringify(document, null, 2));
      },
      ok,
      run: cli.run,
      async state() {
        const exported = JSON.parse(await ok("stack", "export")) as { deployment: { resources?: { type: string; outputs?: Record<string, unknown> }[] } };
        return exported.deployment.resources?.find((r) => r.type === "agent-hosting:index:Agent")?.outputs;
      },
    };
    program.write({ serviceName: `${label}-bot`, image: GOOD });
    await initStackWithConfig(cli, fx.emulator);
    return program;
  }

  /**
   * `pulumi up --yes --diff`, as a user runs it: the CLI's preview, which must succeed, then the update.
   * The preview's part of the output (up to the update's "Updating (dev):") and the up's result.
   */
  async function previewThenUp(program: Program): Promise<{ preview: string; up: { code: number; out: string } }> {
    const up = await program.run("up", "--yes", "--diff");
    const [preview = "", update] = up.out.split(/^Updating \(/m);
    expect(update, `the up's preview failed:\n${up.out}`).toBeDefined();
    return { preview, up };
  }

  const summaryOf = async (name: string) => (await fx.control.listAgents()).agents.find((a) => a.name === name);

  describe("a Pulumi YAML program on the native plugin when a deployment fails", () => {
    it("rolls a never-ready update back; the state says so and the next preview shows the image change again", async () => {
      const program = await newProgram("rollback");
      const base = { serviceName: "rollback-bot", image: GOOD, readyTimeoutSeconds: 2, onFailure: "rollback" };
      program.write(base);
      expect((await previewThenUp(program)).up.code).toBe(0);

      program.write({ ...base, image: "registry.example.com/bot:fail" });
      const { preview, up } = await previewThenUp(program);
      expect(preview).toMatch(/~ image: "registry\.example\.com\/bot:1" => "registry\.example\.com\/bot:fail"/);
      expect(up.code).not.toBe(0);
      const after = await summaryOf("rollback-bot");
      const [, failed, rolledBack] = after?.deployments ?? [];
      expect(rolledBack?.image).toBe(GOOD);
      expect(after?.activeDeploymentId).toBe(rolledBack?.id);
      expect(up.out).toContain(`deployment ${failed?.id}`);
      expect(up.out).toContain(`rolled back to deployment ${rolledBack?.id}`);
      expect((await fx.client.getAgent("rollback-bot")).ready).toBe(true);
      expect(await program.state()).toMatchObject({ image: GOOD, activeDeploymentId: rolledBack?.id });
      const again = await program.ok("preview", "--diff");
      expect(again).toMatch(/image *: "registry\.example\.com\/bot:1" => "registry\.example\.com\/bot:fail"/);
      expect(up.out).not.toContain(API_KEY);
    });

    it("a failed create with rollback leaves nothing at the service and nothing in the state", async () => {
      const program = await newProgram("create");
      program.write({ serviceName: "doomed-bot", image: "registry.example.com/bot:fail", readyTimeoutSeconds: 2, onFailure: "rollback" });
      const { up } = await previewThenUp(program);
      expect(up.code).not.toBe(0);
      expect(up.out).toContain("Back-off restarting failed container");
      expect(await summaryOf("doomed-bot")).toBeUndefined();
      expect(await program.state()).toBeUndefined();
    });

    it("customTimeouts: { update: 4s } ends the wait long before readyTimeoutSeconds: 120", async () => {
      const program = await newProgram("timeouts");
      const base = { serviceName: "timeout-bot", image: GOOD, readyTimeoutSeconds: 120 };
      program.write(base, { customTimeouts: { update: "4s" } });
      expect((await previewThenUp(program)).up.code).toBe(0);
      program.write({ ...base, image: "registry.example.com/bot:fail" }, { customTimeouts: { update: "4s" } });
      const { up } = await previewThenUp(program);
      expect(up.code).not.toBe(0);
      expect(up.out).toMatch(/did not become ready within 4 s after update/);
      expect(up.out).toContain("customTimeouts.update");
      // Kept (the default): the failed deployment stays in place and in the state; the old one serves.
      const after = await summaryOf("timeout-bot");
      expect(after?.deployments).toHaveLength(2);
      const [first, failed] = after?.deployments ?? [];
      expect(after?.activeDeploymentId).toBe(first?.id);
      expect(up.out).toContain(`Back-off restarting failed container agent in deployment ${failed?.id}`);
      expect(await program.state()).toMatchObject({
        image: "registry.example.com/bot:fail",
        activeDeploymentId: after?.activeDeploymentId,
        desiredDeploymentId: failed?.id,
        available: true,
        __pending: "update",
      });
      // The next up waits for the same deployment again and fails again; nothing new is made.
      const again = await previewThenUp(program);
      expect(again.up.code).not.toBe(0);
      expect(again.up.out).toMatch(/did not become ready within 4 s after update/);
      expect((await summaryOf("timeout-bot"))?.deployments).toHaveLength(2);
    });

    it("customTimeouts: { create: 4s } ends a never-ready create's wait; the agent stays in the state, and a good image converges", async () => {
      const program = await newProgram("create-timeout");
      const base = { serviceName: "slow-create-bot", readyTimeoutSeconds: 120 };
      const options = { customTimeouts: { create: "4s" } };
      program.write({ ...base, image: "registry.example.com/bot:fail" }, options);
      const { up } = await previewThenUp(program);
      expect(up.code).not.toBe(0);
      expect(up.out).toMatch(/did not become ready within 4 s after create/);
      expect(up.out).toContain("The wait ended at the engine's customTimeouts.create (4 s), before readyTimeoutSeconds (120 s).");
      expect(up.out).toContain("Fix the image, or raise customTimeouts.create.");
      // The agent was created at the service: the state holds it, unfinished, so nothing is orphaned.
      const created = await summaryOf("slow-create-bot");
      expect(created?.deployments).toHaveLength(1);
      expect(await program.state()).toMatchObject({ image: "registry.example.com/bot:fail", activeDeploymentId: created?.activeDeploymentId, __pending: "create" });

      program.write({ ...base, image: GOOD }, options);
      const fixed = await previewThenUp(program);
      expect(fixed.preview).toMatch(/~ image: "registry\.example\.com\/bot:fail" => "registry\.example\.com\/bot:1"/);
      expect(fixed.up.code, fixed.up.out).toBe(0);
      expect((await fx.control.listAgents()).agents.filter((a) => a.name.startsWith("slow-create-bot"))).toHaveLength(1);
      expect((await fx.client.getAgent("slow-create-bot")).ready).toBe(true);
      const state = await program.state();
      expect(state).toMatchObject({ image: GOOD, ready: true });
      expect(state?.["__pending"]).toBeUndefined();
    });

    it("keeps a deployment whose health check finds a line (onFailure keep): the service runs it, the state describes it", async () => {
      const program = await newProgram("keep-health");
      const base = { serviceName: "kept-health-bot", image: GOOD, healthCheck: { failOnLogQuery: "panic", watchSeconds: 3 } };
      program.write(base);
      expect((await previewThenUp(program)).up.code).toBe(0);
      const before = (await summaryOf("kept-health-bot"))?.activeDeploymentId;
      program.write({ ...base, image: "registry.example.com/bot:unhealthy" });
      const { up } = await previewThenUp(program);
      expect(up.code).not.toBe(0);
      const failed = (await summaryOf("kept-health-bot"))?.deployments[1];
      expect(up.out).toContain(`panic: voice pipeline lost its model connection in deployment ${failed?.id}`);
      expect(up.out).toContain(`onFailure "keep": deployment ${failed?.id} stays in place at the service.`);
      expect(up.out).toContain(`(image ${GOOD}, deployment ${before}), set onFailure: "rollback" and run \`pulumi up\``);
      const live = await fx.client.getAgent("kept-health-bot");
      expect(live.ready && live.activeDeploymentId === failed?.id).toBe(true);
      expect(await program.state()).toMatchObject({ image: "registry.example.com/bot:unhealthy", activeDeploymentId: failed?.id, __pending: "update" });
      // The next preview: the unfinished update is updated again, and the row says why.
      const again = await program.ok("preview");
      expect(again).toMatch(/~ +agent-hosting:index:Agent bot update/);
      expect(again).toContain(
        `the update of an earlier \`pulumi up\` did not finish (deployment ${failed?.id}, image registry.example.com/bot:unhealthy); \`pulumi up\` checks on it again`,
      );
    });

    // Not a failed deployment, but the same program and plugin: secret sets checked at preview, live sessions at destroy.
    it("a missing set or field fails the preview naming the set's fields; destroy waits drainSeconds for live sessions", async () => {
      await fx.control.seedSecretSet("yaml-secrets", ["DB_URL", "TOKEN"]);
      const program = await newProgram("refs");
      const base = { serviceName: "refs-bot", image: GOOD };
      program.write({ ...base, secretSet: "no-such-secrets" });
      const missing = await program.run("preview");
      expect(missing.code).not.toBe(0);
      expect(missing.out).toContain('secret set "no-such-secrets" does not exist at the service (GET /secrets/no-such-secrets answered 404)');
      program.write({ ...base, secretSet: "yaml-secrets", requiredSecrets: ["TOKEN", "SIP_PASSWORD"] });
      const lacking = await program.run("preview");
      expect(lacking.code).not.toBe(0);
      expect(lacking.out).toContain('secret set "yaml-secrets" lacks the field SIP_PASSWORD that requiredSecrets names; it has DB_URL, TOKEN');
      expect(await summaryOf("refs-bot")).toBeUndefined();
      program.write({ ...base, secretSet: "yaml-secrets", requiredSecrets: ["TOKEN"], drainSeconds: 30 });
      expect((await previewThenUp(program)).up.code).toBe(0);
      // The sessions stay live until the delete has read them (its first GET of the agent), then end.
      await fx.control.setSessions("refs-bot", 2);
      const reads = async () => (await fx.control.requests()).requests.filter((r) => r.method === "GET" && r.path === "/v1/agents/refs-bot").length;
      const readsBefore = await reads();
      const destroying = program.run("destroy", "--yes");
      while ((await reads()) === readsBefore) await new Promise((r) => setTimeout(r, 100));
      await fx.control.setSessions("refs-bot", 0);
      const destroy = await destroying;
      expect(destroy.code, destroy.out).toBe(0);
      expect(destroy.out).toContain('agent "refs-bot": 2 live sessions; waiting for them to end before the delete, 0 s of drainSeconds 30 s');
      expect(destroy.out).not.toContain("were cut by the delete");
      expect(await summaryOf("refs-bot")).toBeUndefined();
    });
  });
});
