/**
 * The release as users install it, with no checkout of this repository on
 * their side: `writeRelease` (what `npm run release` writes) into a
 * temporary directory, which a loopback HTTP server serves in place of the
 * GitHub release. Nothing is installed with `pulumi plugin install`: each
 * stack's PULUMI_HOME starts empty and the engine fetches the plugin itself
 * through the schema's pluginDownloadURL, which
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES points at the server.
 *
 * - Python: a new virtualenv holding only the released wheel and `pulumi`
 *   from PyPI runs the Python driver's program.
 * - Go: the Go driver's program, whose go.mod requires the SDK module by
 *   version with no replace directive, built through GOPROXY with the
 *   release's module proxy first and a module cache of its own.
 *
 * Each previews, updates (previewing first) and destroys an agent and reads
 * a secret set against the emulator; the API key is in no output, engine
 * text or file of the stack. The npm tarball is installed by
 * test/e2e/packed-package.test.ts.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostTarget } from "../../scripts/lib/plugin-package.mjs";
import { pluginTarballName, wheelName } from "../../scripts/lib/release/names.mjs";
import { writeRelease } from "../../scripts/lib/release/write-release.mjs";
import { AgentHostingClient } from "../../src/client/client";
import { startEmulator } from "../../src/emulator";
import { repoRoot, type ProgramParams, type StackOp } from "../languages/support/drivers";
import { runDriver, type OpResult } from "../languages/support/run";
import { buildAgainstRelease } from "./support/released-go";
import { installWheel } from "./support/released-python";
import { releasedStack, type ReleasedStack } from "./support/released-stack";
import { serveRelease, type ReleaseServer } from "./support/release-server";

const API_KEY = "released-SECRET-key-71c3e0";

let releaseDir: string;
let version: string;
let server: ReleaseServer;
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: AgentHostingClient;
let cliDir: string;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  const dir = process.env["AGENT_HOSTING_PULUMI_CLI_DIR"];
  if (!dir) throw new Error("the global setup provides the pulumi CLI (AGENT_HOSTING_PULUMI_CLI_DIR)");
  cliDir = dir;
  if (!existsSync(join(repoRoot, "dist", "hosts", "grpc", "plugin-bin.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  releaseDir = mkdtempSync(join(tmpdir(), "agent-hosting-release-"));
  version = await writeRelease(releaseDir, () => undefined);
  server = await serveRelease(releaseDir);
  emulator = await startEmulator({ apiKey: API_KEY, readyAfterMs: 200, secretSets: { "voice-secrets": ["TOKEN", "SIP_PASSWORD"] } });
  client = new AgentHostingClient({ baseUrl: emulator.url, apiKey: API_KEY });
}, 600_000);

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  await server?.close();
  if (releaseDir) rmSync(releaseDir, { recursive: true, force: true });
});

/** A language's program installed from the release into a stack: how to run one operation of it, and what to check of the install. */
interface Installed {
  run(op: StackOp, params: ProgramParams): Promise<OpResult>;
  check(): void;
}

function releasedLanguage(language: string, install: (stack: ReleasedStack) => Installed): void {
  describe(`${language}, installed from the release`, () => {
    const tag = language.toLowerCase();
    const seen: string[] = [];
    let stack: ReleasedStack;
    let installed: Installed;

    const params = (): ProgramParams => ({
      config: { "agent-hosting:baseUrl": { value: emulator.url }, "agent-hosting:apiKey": { value: API_KEY, secret: true } },
      agents: [
        {
          name: "bot",
          serviceName: `released-${tag}-bot`,
          image: "registry.example.com/bot:1.0",
          secretSet: "voice-secrets",
          autoScaling: { minAgents: 1, maxAgents: 2 },
          reads: true,
        },
      ],
      secretSets: ["voice-secrets"],
    });

    async function op(name: StackOp): Promise<OpResult> {
      const result = await installed.run(name, params());
      seen.push(result.engineOutput, result.error ?? "", JSON.stringify(result.outputs));
      expect(result.error ?? "", result.engineOutput).toBe("");
      expect(result.ok).toBe(true);
      return result;
    }

    beforeAll(() => {
      stack = releasedStack(tag, cliDir, server.url);
      installed = install(stack);
    }, 600_000);

    afterAll(() => stack?.remove());

    it("installs the SDK from the release files alone", () => {
      installed.check();
    });
    it("previews, ups and destroys an agent, the engine fetching the plugin from the release itself", async () => {
      const tarballPath = `/${pluginTarballName(version, hostTarget())}`;
      const fetchedBefore = server.requests.get(tarballPath) ?? 0;
      const preview = await op("preview");
      expect(preview.changeSummary["create"]).toBe(2); // the stack and the agent
      expect(server.requests.get(tarballPath)).toBe(fetchedBefore + 1);
      expect(existsSync(join(stack.pulumiHome, "plugins", `resource-agent-hosting-v${version}`))).toBe(true);

      const up = await op("up");
      expect(up.changeSummary["create"]).toBe(2);
      const live = await client.getAgent(`released-${tag}-bot`);
      expect(live.ready).toBe(true);
      expect(up.outputs["bot.id"]).toBe(`released-${tag}-bot`);
      expect(up.outputs["bot.activeDeploymentId"]).toBe(live.activeDeploymentId);
      expect(up.outputs["secretSet.voice-secrets"]).toEqual(["TOKEN", "SIP_PASSWORD"]);

      const destroy = await op("destroy");
      expect(destroy.changeSummary["delete"]).toBe(2);
      await expect(client.getAgent(`released-${tag}-bot`)).rejects.toThrow(/404|not found/i);
      // Fetched once: the update and the destroy found it installed.
      expect(server.requests.get(tarballPath)).toBe(fetchedBefore + 1);
    });

    it("the API key is in no output, engine text or file of the stack", () => {
      expect(seen.length).toBeGreaterThan(0);
      for (const text of seen) expect(text).not.toContain(API_KEY);
      const files = filesUnder(stack.stateDir);
      expect(files.some((f) => f.includes(`${sep}backend${sep}`))).toBe(true);
      for (const file of files) expect(readFileSync(file, "utf8").includes(API_KEY), `${file} holds the API key`).toBe(false);
    });
  });
}

releasedLanguage("Python", (stack) => {
  const venv = join(stack.workDir, "venv");
  const python = installWheel(join(releaseDir, wheelName(version)), venv);
  const script = join(stack.workDir, "stack_op.py");
  copyFileSync(join(repoRoot, "test/languages/python/stack_op.py"), script);
  return {
    run: (op, params) => runDriver(python, [script, op, stack.workDir, JSON.stringify(params)], stack.env, stack.workDir),
    check() {
      const show = "import importlib.metadata as m, pulumi_agent_hosting as p; print(p.__file__); print(m.version('pulumi_agent_hosting'))";
      const [file, installedVersion] = execFileSync(python, ["-c", show], { cwd: stack.workDir, env: stack.env, encoding: "utf8" }).trim().split("\n");
      expect(file?.startsWith(venv + sep), file).toBe(true);
      expect(installedVersion).toBe(version);
    },
  };
});

releasedLanguage("Go", (stack) => {
  const build = buildAgainstRelease(releaseDir, version, stack.workDir);
  return {
    run: (op, params) => runDriver(build.binary, [op, stack.workDir, JSON.stringify(params)], stack.env, stack.workDir),
    check() {
      expect(build.sdk.Version).toBe(`v${version}`);
      expect(build.sdk.Dir.startsWith(join(stack.workDir, "gomodcache") + sep), build.sdk.Dir).toBe(true);
    },
  };
});
