/**
 * The release as users install it, with no checkout of this repository on
 * their side: what `npm run release` writes (built once per source content,
 * test/e2e/support/cached-release.ts), which a loopback HTTP server serves in
 * place of the GitHub release. Nothing is installed with `pulumi plugin install`: each
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
 * - Java: examples/java in a program directory, its pom.xml naming the
 *   release's Maven repository, run by the CLI in that directory through
 *   pulumi-language-java, with a Maven local repository of its own.
 *
 * Each previews, updates (previewing first) and destroys an agent and reads
 * a secret set against the emulator; the API key is in no output, engine
 * text or file of the stack. The npm tarball is installed by
 * test/e2e/packed-package.test.ts.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostTarget, mavenArtifactPaths, MAVEN_DIR, pluginTarballName, wheelName } from "../support/project-scripts";
import { copyPythonDriver, type ProgramParams, type StackOp } from "../languages/support/drivers";
import { readyDeploymentLines } from "../support/emulator-log-lines";
import { argvDriver, type OpResult } from "../support/stack-driver";
import { useEmulator } from "../support/emulator-fixture";
import { javaHostDir } from "./support/java-program";
import { pulumiCommands } from "./support/pulumi-command";
import { buildAgainstRelease } from "./support/released-go";
import { javaProgramFromRelease, RELEASE_REPOSITORY_ID } from "./support/released-java";
import { installWheel } from "./support/released-python";
import { releasedStack, type ReleasedStack } from "./support/released-stack";
import { useServedRelease } from "./support/served-release";
import { succeeded } from "./support/succeeded";

const API_KEY = "released-SECRET-key-71c3e0";

const release = useServedRelease();
const service = useEmulator({ apiKey: API_KEY, readyAfterMs: 200, secretSets: { "voice-secrets": ["TOKEN", "SIP_PASSWORD"] } });

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

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
      config: { "agent-hosting:baseUrl": { value: service.emulator.url }, "agent-hosting:apiKey": { value: API_KEY, secret: true } },
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
      succeeded(result);
      return result;
    }

    beforeAll(() => {
      stack = releasedStack(tag, release().cliDir, release().server.url);
      installed = install(stack);
    }, 600_000);

    afterAll(() => stack?.remove());

    it("installs the SDK from the release files alone", () => {
      installed.check();
    });
    it("previews, ups and destroys an agent, the engine fetching the plugin from the release itself", async () => {
      const tarballPath = `/${pluginTarballName(release().version, hostTarget())}`;
      const fetchedBefore = release().server.requests.get(tarballPath) ?? 0;
      const preview = await op("preview");
      expect(preview.changeSummary["create"]).toBe(2); // the stack and the agent
      expect(release().server.requests.get(tarballPath)).toBe(fetchedBefore + 1);
      expect(existsSync(join(stack.pulumiHome, "plugins", `resource-agent-hosting-v${release().version}`))).toBe(true);

      const up = await op("up");
      expect(up.changeSummary["create"]).toBe(2);
      const live = await service.client.getAgent(`released-${tag}-bot`);
      expect(live.ready).toBe(true);
      expect(up.outputs["bot.id"]).toBe(`released-${tag}-bot`);
      expect(up.outputs["bot.activeDeploymentId"]).toBe(live.activeDeploymentId);
      expect(up.outputs["secretSet.voice-secrets"]).toEqual(["TOKEN", "SIP_PASSWORD"]);

      const destroy = await op("destroy");
      expect(destroy.changeSummary["delete"]).toBe(2);
      await expect(service.client.getAgent(`released-${tag}-bot`)).rejects.toThrow(/404|not found/i);
      // Fetched once: the update and the destroy found it installed.
      expect(release().server.requests.get(tarballPath)).toBe(fetchedBefore + 1);
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
  const python = installWheel(join(release().dir, wheelName(release().version)), venv);
  const script = copyPythonDriver(stack.workDir);
  return {
    run: (op, params) => argvDriver("Python", () => python, () => [script]).run(op, stack, params),
    check() {
      const show = "import importlib.metadata as m, pulumi_agent_hosting as p; print(p.__file__); print(m.version('pulumi_agent_hosting'))";
      const [file, installedVersion] = execFileSync(python, ["-c", show], { cwd: stack.workDir, env: stack.env, encoding: "utf8" }).trim().split("\n");
      expect(file?.startsWith(venv + sep), file).toBe(true);
      expect(installedVersion).toBe(release().version);
    },
  };
});

releasedLanguage("Go", (stack) => {
  const build = buildAgainstRelease(release().dir, release().version, stack.workDir);
  return {
    run: (op, params) => argvDriver("Go", () => build.binary).run(op, stack, params),
    check() {
      expect(build.sdk.Version).toBe(`v${release().version}`);
      expect(build.sdk.Dir.startsWith(join(stack.workDir, "gomodcache") + sep), build.sdk.Dir).toBe(true);
    },
  };
});

describe("Java, installed from the release", () => {
  let stack: ReleasedStack;
  let env: NodeJS.ProcessEnv;
  let maven: { localRepository: string; harvest(): void };
  const cli = pulumiCommands(() => ({ cwd: stack.workDir, env }));

  async function ok(...args: string[]): Promise<string> {
    const { code, out } = await cli.run(...args);
    expect(code, out).toBe(0);
    return out;
  }

  beforeAll(() => {
    stack = releasedStack("java", release().cliDir, release().server.url);
    maven = javaProgramFromRelease(release().dir, stack.workDir, stack.stateDir);
    // pulumi-language-java beside the CLI, as a Pulumi install has it; the plugin is only the one the engine fetches
    // (nothing on this PATH serves it).
    const { PULUMI_IGNORE_AMBIENT_PLUGINS: _ignored, ...rest } = stack.env;
    env = { ...rest, PATH: `${javaHostDir()}:${rest["PATH"] ?? ""}` };
  }, 600_000);

  afterAll(() => {
    maven?.harvest();
    stack?.remove();
  });

  it("previews, ups and destroys examples/java, the SDK from the release's Maven repository and the plugin fetched by the engine", async () => {
    await ok("stack", "init", "dev");
    await ok("config", "set", "agent-hosting:baseUrl", service.emulator.url);
    await ok("config", "set", "--secret", "agent-hosting:apiKey", API_KEY);
    await ok("config", "set", "secretSet", "voice-secrets");

    const tarballPath = `/${pluginTarballName(release().version, hostTarget())}`;
    const fetchedBefore = release().server.requests.get(tarballPath) ?? 0;
    const preview = await ok("preview");
    expect(preview).toMatch(/\+ +agent-hosting:index:Agent +bot +create/);
    expect(release().server.requests.get(tarballPath)).toBe(fetchedBefore + 1);
    expect(existsSync(join(stack.pulumiHome, "plugins", `resource-agent-hosting-v${release().version}`))).toBe(true);

    // The SDK's jar Maven used is the release's, fetched from the release's repository.
    const paths = mavenArtifactPaths(release().version);
    const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
    expect(sha(join(maven.localRepository, paths.jar))).toBe(sha(join(release().dir, MAVEN_DIR, paths.jar)));
    expect(readFileSync(join(maven.localRepository, paths.dir, "_remote.repositories"), "utf8")).toContain(`.jar>${RELEASE_REPOSITORY_ID}=`);

    expect(await ok("up", "--yes")).toContain("2 created");
    const outputs = JSON.parse(await ok("stack", "output", "--json")) as Record<string, unknown>;
    const live = await service.client.getAgent("voice-bot");
    expect(live.ready).toBe(true);
    expect(outputs["deploymentId"]).toBe(live.activeDeploymentId);
    expect(outputs["secretFields"]).toEqual(["TOKEN", "SIP_PASSWORD"]);
    expect(outputs["deployedImage"]).toBe("registry.example.com/voice-bot:1.4.2");
    // examples/java's getAgentLogs, limit 5: its one deployment's lines, newest first.
    const lines = readyDeploymentLines({ deploymentId: live.activeDeploymentId, image: "registry.example.com/voice-bot:1.4.2", replicas: [1, 5] });
    expect(outputs["newestLogLines"]).toEqual(lines.reverse());

    await ok("destroy", "--yes");
    await expect(service.client.getAgent("voice-bot")).rejects.toThrow(/404|not found/i);
    expect(release().server.requests.get(tarballPath)).toBe(fetchedBefore + 1);

    const all = cli.seen.join("\n");
    expect(all).not.toContain(API_KEY);
    expect(all).not.toContain("pulumi-resource-agent-hosting from $PATH");
    const files = filesUnder(stack.stateDir).filter((f) => !f.startsWith(join(stack.pulumiHome, "plugins")) && !f.startsWith(maven.localRepository));
    expect(files.some((f) => f.includes(`${sep}backend${sep}`))).toBe(true);
    for (const file of files) expect(readFileSync(file, "utf8").includes(API_KEY), `${file} holds the API key`).toBe(false);
  });
});
