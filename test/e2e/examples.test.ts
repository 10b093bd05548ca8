/**
 * examples/<language>/ as users copy them: each directory is copied out of
 * the repository, checked to depend on the package by version (no `file:`
 * path, no `replace`), installed from the release's files (the release built
 * once per source content, test/e2e/support/cached-release.ts, and served by
 * a loopback server standing in for the GitHub release, from which the engine
 * fetches the plugin itself) and run as its README says against the
 * emulator: a preview of the new stack, up, a preview that shows no change,
 * destroy. The README's commands are the ones run here, in its order.
 *
 * Paths: YAML runs every README command with the CLI in the copied
 * directory (Pulumi YAML's language host); so does Java (pulumi-language-java,
 * test/e2e/support/java-program.ts), its pom.xml naming the release's Maven
 * repository with the README's own <repositories> block, Maven's local
 * repository the program's own. No Node.js, Python or Go
 * language host binary exists here (pulumi-cli.sh), so the others
 * run their install commands as written (npm install with the release's
 * tarball for the package, which is on no registry here; pip with the
 * release directory as --find-links; go mod tidy through the release's
 * module proxy), then their program through the Automation API: TypeScript
 * from the copied directory with its own node_modules
 * (test/e2e/programs/packed-runner.cjs), Python's __main__.py in the
 * virtualenv made from requirements.txt (the Python driver), Go's main.go
 * built from the copied go.mod beside the Go driver.
 *
 * This is also where the release is installed as users install it, with no
 * checkout on their side: each stack's PULUMI_HOME starts empty and the engine
 * fetches the plugin from the release once (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES
 * points at the server); the Python module the program imports is the
 * release's wheel in the README's virtualenv, the Go SDK module comes from the
 * release's module proxy into the program's own module cache, and the Java
 * SDK's jar Maven used is the release's. The npm tarball's install is
 * test/e2e/packed-package.test.ts's.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goBinary, mavenCoordinates, hostTarget, mavenArtifactPaths, MAVEN_DIR, npmTarballName, pluginTarballName } from "../support/project-scripts";
import { GO_MODULE } from "../../src/hosts/grpc/package-schema";
import { PLUGIN_DOWNLOAD_URL } from "../../src/core/plugin-download-url";
import { copyPythonDriver, repoRoot, type StackConfig } from "../languages/support/drivers";
import { argvDriver, runDriver, withProgram, type DriverStack, type StackDriver } from "../support/stack-driver";
import { logEntry, readyDeploymentLines, stampedLine } from "../support/emulator-log-lines";
import { codeBlocks } from "../support/readme-blocks";
import { useEmulator } from "../support/emulator-fixture";
import { isolateMaven, javaProgramEnv } from "./support/java-program";
import { cliDriver, runNewStack } from "./support/new-stack-lifecycle";
import { copyPackedRunner, userEnvOnNode } from "./support/packed-install";
import { pulumiCommands } from "./support/pulumi-command";
import { buildProgramAgainstRelease, releasedGoEnv } from "./support/released-go";
import { installRequirements } from "./support/released-python";
import { RELEASE_REPOSITORY_ID } from "./support/released-java";
import { releasedStack, type ReleasedStack } from "./support/released-stack";
import { useServedRelease } from "./support/served-release";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "examples-SECRET-key-9b3e17";
const SECRET_FIELDS = ["OPENAI_API_KEY", "SIP_PASSWORD"];
const IMAGE = "registry.example.com/voice-bot:1.4.2";
const LANGUAGES = ["typescript", "typescript-native", "python", "go", "yaml", "java"] as const;
type Language = (typeof LANGUAGES)[number];

const SERVICE_PLACEHOLDER = "https://<your-service-host>/v1";
const KEY_PLACEHOLDER = "<private API token>";
/** The README commands after the install: the stack, its settings, and the operations. */
const STACK_COMMANDS = [
  "pulumi stack init dev",
  `pulumi config set agent-hosting:baseUrl ${SERVICE_PLACEHOLDER}`,
  `pulumi config set --secret agent-hosting:apiKey ${KEY_PLACEHOLDER}`,
  "pulumi preview",
  "pulumi up",
  "pulumi destroy",
];
/** The Java README's: it also sets the program's `secretSet` (optional, to the default) and shows one output after up. */
const JAVA_STACK_COMMANDS = [
  ...STACK_COMMANDS.slice(0, 3),
  "pulumi config set secretSet voice-bot-secrets",
  "pulumi preview",
  "pulumi up",
  "pulumi stack output secretFields",
  "pulumi destroy",
];
/** Where the Java README's <repositories> block names the release's Maven repository. */
const MAVEN_PLACEHOLDER = "file:///path/to/dist-release/maven";

const release = useServedRelease();
const service = useEmulator({ apiKey: API_KEY, readyAfterMs: 300, secretSets: { "voice-bot-secrets": SECRET_FIELDS } });

/** Each README's commands: the install commands, then the stack's (Maven fetches Java's SDK on the first preview). */
function expectedCommands(language: Language): string[] {
  if (language === "python") return ["python3 -m venv venv", "venv/bin/pip install -r requirements.txt", ...STACK_COMMANDS];
  if (language === "go") return ["go mod tidy", ...STACK_COMMANDS];
  if (language === "yaml") return [`pulumi plugin install resource agent-hosting ${release().version} --server ${PLUGIN_DOWNLOAD_URL}`, ...STACK_COMMANDS];
  if (language === "java") return JAVA_STACK_COMMANDS;
  return ["npm install", ...STACK_COMMANDS];
}

/** The lines of the README's block of commands in its section "Run it", without their trailing comments. */
function readmeCommands(dir: string): string[] {
  const block = codeBlocks(join(dir, "README.md")).find((b) => b.section === "Run it" && b.lang === "sh");
  return (block?.code ?? "").trimEnd().split("\n").map((line) => line.replace(/\s+#.*$/, ""));
}

/** How the copied example depends on the package: the lines that name it. */
function dependencyOf(language: Language, dir: string): { text: string; expected: RegExp } {
  const v = release().version.replaceAll(".", "\\.");
  if (language === "python") return { text: readFileSync(join(dir, "requirements.txt"), "utf8"), expected: new RegExp(`^pulumi_agent_hosting==${v}$`, "m") };
  if (language === "go") return { text: readFileSync(join(dir, "go.mod"), "utf8"), expected: new RegExp(`^\\t${GO_MODULE} v${v}$`, "m") };
  if (language === "yaml") return { text: readmeCommands(dir).join("\n"), expected: new RegExp(`resource agent-hosting ${v} --server`) };
  if (language === "java") {
    const { groupId, artifactId } = mavenCoordinates(JSON.parse(readFileSync(join(repoRoot, "schema.json"), "utf8")) as Parameters<typeof mavenCoordinates>[0]);
    const coordinates = `<groupId>${groupId.replaceAll(".", "\\.")}</groupId>\\s*<artifactId>${artifactId}</artifactId>\\s*<version>${v}</version>`;
    return { text: readFileSync(join(dir, "pom.xml"), "utf8"), expected: new RegExp(coordinates) };
  }
  return { text: readFileSync(join(dir, "package.json"), "utf8"), expected: new RegExp(`"pulumi-agent-hosting": "${v}"`) };
}


const stackConfig = (): StackConfig => ({
  "agent-hosting:baseUrl": { value: service.emulator.url },
  "agent-hosting:apiKey": { value: API_KEY, secret: true },
});

/** The copied example, installed: the driver of its stack operations and where it runs them, and what to check and finish of the install. */
interface Installed {
  driver: StackDriver;
  /** The example's directory (the CLI's, for YAML and Java) or the stack's, with the environment the driver runs in. */
  at: DriverStack;
  /** Checks of what the install took, once the stack's operations have run. */
  check?(): void;
  /** Runs after the example's tests (Java: what Maven fetched warms ~/.m2, test/e2e/support/java-program.ts). */
  done?(): void;
}

/** Installs the copied example as its README says. */
type Install = (dir: string, stack: ReleasedStack) => Installed;

/**
 * The node_modules an example's `npm install` with the release's tarball made, by what it installed (the
 * tarball and package.json's dependencies): hard-linked snapshots under the OS temp dir, kept until the
 * file ends, since each example's own directory goes with its stack.
 */
const installedModules = new Map<string, string>();
let snapshotsDir: string | undefined;
afterAll(() => {
  if (snapshotsDir) rmSync(snapshotsDir, { recursive: true, force: true });
});

/** What an example's `npm install` with `tarball` installs: the tarball, and package.json's dependencies and devDependencies. */
function installKey(dir: string, tarball: string): string {
  const { dependencies, devDependencies } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  return JSON.stringify({ tarball, dependencies, devDependencies });
}

/**
 * The README's `npm install`, with the release's tarball for the package, which is on no registry here. The
 * first example of the file installs; one whose package.json names the same dependencies (examples/typescript
 * and examples/typescript-native) takes a hard-linked copy of that node_modules: the same command would install
 * the same tree, and npm's resolution of ~200 packages costs more CPU than the rest of its stack's operations.
 */
function npmInstall(dir: string, tarball: string): void {
  const key = installKey(dir, tarball);
  const installed = installedModules.get(key);
  if (installed) {
    execFileSync("cp", ["-al", installed, join(dir, "node_modules")]);
    return;
  }
  execFileSync("npm", ["install", "--no-save", "--prefer-offline", "--no-audit", "--no-fund", tarball], { cwd: dir, env: userEnvOnNode(), stdio: ["ignore", "ignore", "pipe"] });
  snapshotsDir ??= mkdtempSync(join(tmpdir(), "agent-hosting-example-modules-"));
  const snapshot = join(snapshotsDir, String(installedModules.size));
  execFileSync("cp", ["-al", join(dir, "node_modules"), snapshot]);
  installedModules.set(key, snapshot);
}

/** `npm install` with the release's tarball for the package, a typecheck, then the program through the Automation API from its directory. */
const installTypescript: Install = (dir, stack) => {
  const tarball = join(release().dir, npmTarballName(release().version));
  npmInstall(dir, tarball);
  // The package in the example's node_modules is the release's tarball (npm's record of what it installed).
  const lock = JSON.parse(readFileSync(join(dir, "node_modules", ".package-lock.json"), "utf8")) as { packages: Record<string, { integrity?: string }> };
  expect(lock.packages["node_modules/pulumi-agent-hosting"]?.integrity).toBe(`sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`);
  execFileSync(join(dir, "node_modules", ".bin", "tsc"), ["--noEmit", "-p", "."], { cwd: dir, env: userEnvOnNode(), encoding: "utf8" });
  const runner = copyPackedRunner(dir, "pulumi-runner.cjs");
  const params = JSON.stringify({ baseUrl: service.emulator.url, apiKey: API_KEY, programFile: "index.ts" });
  return { driver: { language: "TypeScript", run: (op, at) => runDriver(process.execPath, [runner, op, params], at.env, at.workDir) }, at: { workDir: dir, env: stack.env } };
};

/** The README's virtualenv, then __main__.py through the Python driver in that virtualenv; the SDK it imports is the release's wheel, installed there. */
const installPython: Install = (dir, stack) => {
  const python = installRequirements(dir, release().dir);
  const script = copyPythonDriver(stack.workDir);
  const params = { config: stackConfig(), source: readFileSync(join(dir, "__main__.py"), "utf8") };
  return {
    driver: withProgram(argvDriver("Python", () => python, () => [script]), params),
    at: stack,
    check() {
      const show = "import importlib.metadata as m, pulumi_agent_hosting as p; print(p.__file__); print(m.version('pulumi_agent_hosting'))";
      const [file, installedVersion] = execFileSync(python, ["-c", show], { cwd: dir, env: stack.env, encoding: "utf8" }).trim().split("\n");
      expect(file?.startsWith(join(dir, "venv") + sep), file).toBe(true);
      expect(installedVersion).toBe(release().version);
    },
  };
};

/** `go mod tidy` through the release's module proxy, then main.go built with that go.mod beside the Go driver. */
const installGo: Install = (dir, stack) => {
  execFileSync(goBinary(), ["mod", "tidy"], { cwd: dir, env: releasedGoEnv(release().dir, stack.workDir), stdio: ["ignore", "ignore", "pipe"] });
  const build = buildProgramAgainstRelease(release().dir, dir, stack.workDir);
  expect(build.sdk.Version).toBe(`v${release().version}`);
  expect(build.sdk.Dir.startsWith(join(stack.workDir, "gomodcache") + sep), build.sdk.Dir).toBe(true);
  return { driver: withProgram(argvDriver("Go", () => build.binary), { config: stackConfig() }), at: stack };
};

/** A README's `pulumi` command line as the CLI's arguments; the placeholders become the emulator's address and key. */
const cliArgs = (line: string): string[] => line.replace(SERVICE_PLACEHOLDER, service.emulator.url).replace(KEY_PLACEHOLDER, API_KEY).split(" ").slice(1);
const isSetup = (line: string): boolean => line.startsWith("pulumi stack init") || line.startsWith("pulumi config");

/** Every README command, with the CLI in the copied directory. */
const installYaml: Install = (dir, stack) => {
  const env = yamlProgramEnv(stack.env);
  const [install, ...rest] = readmeCommands(dir);
  const setup = [install ?? "", ...rest.filter(isSetup)];
  return { driver: cliDriver("YAML", setup.map(cliArgs), (op) => cliArgs(`pulumi ${op}`)), at: { workDir: dir, env } };
};

/**
 * The README's <repositories> block, naming the release's Maven repository, put in pom.xml before
 * <build> as the README says; then every README command with the CLI in the copied directory, Maven's
 * local repository the program's own: the stack's settings, the operations, and after up its
 * `pulumi stack output secretFields`. The SDK's jar Maven took must be the release's.
 */
const installJava: Install = (dir, stack) => {
  const blocks = codeBlocks(join(dir, "README.md")).filter((b) => b.lang === "xml");
  expect(blocks.map((b) => b.code), "the README's xml blocks").toHaveLength(1);
  const repositories = (blocks[0]?.code ?? "").replace(MAVEN_PLACEHOLDER, `file://${join(release().dir, MAVEN_DIR)}`);
  expect(repositories, "the README's <repositories> block").toContain(`<url>file://${join(release().dir, MAVEN_DIR)}</url>`);
  const pom = readFileSync(join(dir, "pom.xml"), "utf8");
  expect(pom).toContain("\n  <build>");
  writeFileSync(join(dir, "pom.xml"), pom.replace("\n  <build>", `\n${repositories}\n  <build>`));
  const maven = isolateMaven(dir, join(stack.stateDir, "maven"));
  const env = javaProgramEnv(stack.env);
  const cli = pulumiCommands(() => ({ cwd: dir, env }));
  const commands = readmeCommands(dir);
  const afterUp = commands.filter((line) => line.startsWith("pulumi stack output"));
  const commandsDriver = cliDriver("Java", commands.filter(isSetup).map(cliArgs), (op) => cliArgs(`pulumi ${op}`));
  return {
    driver: {
      language: "Java",
      async run(op, at) {
        const outcome = await commandsDriver.run(op, at);
        if (op !== "up" || !outcome.ok) return outcome;
        let text = outcome.engineOutput;
        for (const line of afterUp) {
          const out = await cli.ok(...cliArgs(line));
          expect(JSON.parse(out), line).toEqual(SECRET_FIELDS);
          text += out;
        }
        return { ...outcome, engineOutput: text };
      },
    },
    at: { workDir: dir, env },
    check() {
      const paths = mavenArtifactPaths(release().version);
      const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
      expect(sha(join(maven.localRepository, paths.jar)), "the SDK's jar Maven used").toBe(sha(join(release().dir, MAVEN_DIR, paths.jar)));
      expect(readFileSync(join(maven.localRepository, paths.dir, "_remote.repositories"), "utf8")).toContain(`.jar>${RELEASE_REPOSITORY_ID}=`);
    },
    done: () => maven.harvest(),
  };
};

const INSTALLS: Record<Language, Install> = {
  typescript: installTypescript,
  "typescript-native": installTypescript,
  python: installPython,
  go: installGo,
  yaml: installYaml,
  java: installJava,
};

/**
 * What each example exports once it is up. Its newest log lines are the five its one deployment wrote
 * (test/support/emulator-log-lines.ts), newest first: each after its time where the program prints
 * both, the entries themselves in YAML, the texts alone in Java.
 */
function expectedOutputs(language: Language, deploymentId: string): Record<string, unknown> {
  const manifest = expect.objectContaining({ spec: expect.objectContaining({ image: IMAGE }) });
  const newest = readyDeploymentLines({ deploymentId, image: IMAGE, replicas: [1, 5] }).reverse();
  if (language === "typescript") return { agentName: "voice-bot", ready: true, deploymentId, manifest, newestLogLines: newest.map(stampedLine) };
  if (language === "yaml") return { deploymentId, manifest, secretFields: SECRET_FIELDS, newestLogLines: newest.map(logEntry) };
  if (language === "java") return { deploymentId, deployedImage: IMAGE, secretFields: SECRET_FIELDS, newestLogLines: newest };
  return { agentName: "voice-bot", deploymentId, secretFields: SECRET_FIELDS, newestLogLines: newest.map(stampedLine) };
}

function filesUnder(dir: string, skip: RegExp): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (skip.test(entry)) return [];
    return statSync(path).isDirectory() ? filesUnder(path, skip) : [path];
  });
}

describe("examples/", () => {
  it("has a directory per language run here, and the pipeline example", () => {
    expect(readdirSync(join(repoRoot, "examples"))).toEqual(expect.arrayContaining([...LANGUAGES, "pipeline"]));
  });
});

describe.each(LANGUAGES)("examples/%s, copied out of the repository", (language) => {
  let stack: ReleasedStack;
  let dir: string;
  let installed: Installed | undefined;

  beforeAll(() => {
    stack = releasedStack(`example-${language}`, release().cliDir, release().server.url);
    dir = join(stack.workDir, language);
    // What a checkout's copy holds, without what running it there may have left (installs, stack settings).
    const leftOver = /(^|\/)(node_modules|venv|bin|target)(\/|$)|Pulumi\.[^./]+\.yaml$/;
    cpSync(join(repoRoot, "examples", language), dir, { recursive: true, filter: (path) => !leftOver.test(relative(repoRoot, path)) });
  });
  afterAll(() => {
    installed?.done?.();
    stack?.remove();
  });

  it("depends on the package by version, and its README lists the commands run here", () => {
    const { text, expected } = dependencyOf(language, dir);
    expect(text).toMatch(expected);
    expect(text).not.toMatch(/file:|^replace /m);
    expect(readmeCommands(dir)).toEqual(expectedCommands(language));
  });

  it("installs from the release and runs as its README says: a preview of the new stack, up, a no-op preview, destroy", async () => {
    const tarballPath = `/${pluginTarballName(release().version, hostTarget())}`;
    const fetched = release().server.requests.get(tarballPath) ?? 0;
    installed = INSTALLS[language](dir, stack);
    const texts = await runNewStack(installed.driver, installed.at, service, (live) => expectedOutputs(language, live.activeDeploymentId), { firstPreview: true });
    installed.check?.();
    // The native plugin came from the release, fetched once; the package root's Agent needs none.
    expect(release().server.requests.get(tarballPath) ?? 0).toBe(fetched + (language === "typescript" ? 0 : 1));
    expect(texts.join("\n")).not.toContain(API_KEY);
    const files = filesUnder(stack.workDir, /^(node_modules|venv|gomodcache|plugins|m2)$/);
    expect(files.filter((file) => readFileSync(file).includes(API_KEY)), "files holding the API key").toEqual([]);
  });
});
