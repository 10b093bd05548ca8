/**
 * The example programs of schema.json (the Agent's and each function's
 * `{{% examples %}}`, from schema-docs/examples) run as written against the
 * emulator, each on a new stack in the CLI's order: up, whose own preview of
 * the new stack (nothing exists yet) runs first and is checked, a preview
 * that shows no change, destroy (test/e2e/support/new-stack-lifecycle.ts). A
 * separate `pulumi preview` before the up would run that same preview again:
 * that a preview creates nothing is shown in each language by
 * examples.test.ts, whose READMEs list it. The programs are read back from
 * schema.json's descriptions, so what the registry shows is what runs; the
 * program of the Python package's README (what PyPI shows) runs the same way.
 *
 * YAML and Java run with the CLI in a program directory (Pulumi YAML's and
 * pulumi-java's language hosts): the YAML program is the directory's
 * Pulumi.yaml; the Java program is the directory's one source in
 * examples/java's Maven layout (test/e2e/support/java-example.ts), the SDK
 * from the release's Maven repository. TypeScript, Python and Go
 * run through each language's Automation API (test/support/program-runners.ts:
 * no Node.js, Python or Go language host binary exists here). The emulator
 * adds fields the service's document never names and leaves out those it
 * does not promise, so the typed `manifest` and `deployment` of the Python,
 * Go and Java SDKs are shown to tolerate both. getImageDigest's examples ask
 * a real registry (test/support/image-registry-fixture.ts, anonymous) for
 * the image they name, which this file pushes there.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGISTRY } from "../../src/registry";
import { repoRoot, type StackConfig } from "../languages/support/drivers";
import type { DriverStack, StackDriver } from "../support/stack-driver";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { goRunner, pythonRunner, typescriptRunner } from "../support/program-runners";
import { logEntry, readyDeploymentLines } from "../support/emulator-log-lines";
import { codeBlocks } from "../support/readme-blocks";
import { schemaExamplePrograms, type SchemaExampleProgram } from "../support/schema-examples";
import { useEmulator } from "../support/emulator-fixture";
import { startImageRegistry } from "../support/image-registry-fixture";
import type { RunningImageRegistry } from "../support/image-registry-fixture";
import { javaExampleProgram, releasedSdkRepository } from "./support/java-example";
import { cliDriver, runNewStack } from "./support/new-stack-lifecycle";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "schema-examples-SECRET-key-5d02c9";
/** The examples of each registered resource and function, by name. */
const SCHEMA_EXAMPLES = Object.fromEntries([...REGISTRY.resources, ...REGISTRY.functions].map((entry) => [entry.name, entry.examples ?? []]));
const SECRET_FIELDS = ["OPENAI_API_KEY", "SIP_PASSWORD"];

const service = useEmulator({
  apiKey: API_KEY,
  readyAfterMs: 300,
  secretSets: { "voice-bot-secrets": SECRET_FIELDS },
  extraFields: true,
  omitOptionalFields: true,
});

/** The image getImageDigest's examples name, pushed to a real registry as `build.image`. */
const EXAMPLE_IMAGE = "registry.example.com/voice-bot:main";
const build = { registry: undefined as RunningImageRegistry | undefined, image: "", digest: "" };

beforeAll(async () => {
  build.registry = await startImageRegistry({ auth: "anonymous" });
  build.digest = await build.registry.pushImage("voice-bot", "main");
  build.image = `${build.registry.host}/voice-bot:main`;
}, 300_000);
afterAll(async () => {
  await build.registry?.close();
});

/** The example as it runs here: getImageDigest's image is the one pushed to the registry. */
function runnableCode(example: SchemaExampleProgram): SchemaExampleProgram {
  return exampleDir(example) === "get-image-digest" ? { ...example, code: example.code.replaceAll(EXAMPLE_IMAGE, build.image) } : example;
}

const config = (): StackConfig => ({
  "agent-hosting:baseUrl": { value: service.emulator.url },
  "agent-hosting:apiKey": { value: API_KEY, secret: true },
});

/** TypeScript, Python or Go through its Automation API driver, on the stack's directory. */
function automationDriver(example: SchemaExampleProgram, stack: StackDir): { driver: StackDriver; at: DriverStack } {
  const label = `schema-example-${example.language}`;
  const driver =
    example.language === "typescript"
      ? typescriptRunner(example.code, stack.workDir, label, config())
      : example.language === "python"
        ? pythonRunner(example.code, config())
        : goRunner(example.code, config(), label);
  return { driver, at: stack };
}

/** The stack and its settings, as the CLI sets them in the program's directory. */
const stackSetup = (): string[][] => [
  ["stack", "init", "dev"],
  ["config", "set", "agent-hosting:baseUrl", service.emulator.url],
  ["config", "set", "--secret", "agent-hosting:apiKey", API_KEY],
];

/** The YAML program as its directory's Pulumi.yaml, driven by the CLI's commands. */
function yamlDriver(example: SchemaExampleProgram, stack: StackDir): { driver: StackDriver; at: DriverStack } {
  writeFileSync(join(stack.workDir, "Pulumi.yaml"), example.code);
  return { driver: cliDriver("YAML", stackSetup()), at: { workDir: stack.workDir, env: yamlProgramEnv(stack.env) } };
}

/** The Java program as its directory's one source in a Maven project, driven by the CLI's commands; `onDone` gets the function that warms ~/.m2. */
async function javaDriver(example: SchemaExampleProgram, stack: StackDir, onDone: (harvest: () => void) => void): Promise<{ driver: StackDriver; at: DriverStack }> {
  const name = `schema-example-${exampleDir(example)}`;
  const sdkRepository = await releasedSdkRepository();
  const { env, harvest } = javaExampleProgram(example.code, name, stack.workDir, join(stack.workDir, ".state"), sdkRepository, stack.env);
  onDone(harvest);
  return { driver: cliDriver("Java", stackSetup()), at: { workDir: stack.workDir, env } };
}

/**
 * What each example's outputs are once it is up, by its directory under schema-docs/examples. The logs
 * example reads its agent's five lines (one ready deployment), newest first: the log texts, or in YAML
 * the entries themselves.
 */
const EXPECTED_OUTPUTS: Record<string, (live: { activeDeploymentId: string }, language: string) => Record<string, unknown>> = {
  agent: (live) => ({ deploymentId: live.activeDeploymentId, deployedImage: "registry.example.com/voice-bot:1.4.2" }),
  "get-secret-set": () => ({ secretFields: SECRET_FIELDS, loadedSecretSets: ["voice-bot-secrets"] }),
  "get-agent-logs": (live, language) => {
    const newest = readyDeploymentLines({ deploymentId: live.activeDeploymentId, image: "registry.example.com/voice-bot:1.4.2" }).reverse();
    return { matchingEntries: 5, newestLogLines: language === "yaml" ? newest.map(logEntry) : newest };
  },
  "python-readme": (live) => ({ deploymentId: live.activeDeploymentId }),
  "get-image-digest": () => ({ digest: build.digest, deployedImage: `${build.image.split(":main")[0]}@${build.digest}` }),
};

/** The program of the Python package's README (schema-docs/python-readme.md, the wheel's long description). */
const PYTHON_README = "the Python package's README";
function pythonReadmeProgram(): SchemaExampleProgram {
  const blocks = codeBlocks(join(repoRoot, "schema-docs/python-readme.md"))
    .filter((b) => b.lang === "python")
    .map((b) => b.code);
  expect(blocks, "python blocks of schema-docs/python-readme.md").toHaveLength(1);
  return { token: "python README", title: PYTHON_README, language: "python", code: blocks[0] ?? "" };
}

function exampleDir(example: SchemaExampleProgram): string {
  if (example.title === PYTHON_README) return "python-readme";
  const name = example.token.split(":")[2] as keyof typeof SCHEMA_EXAMPLES;
  const found = SCHEMA_EXAMPLES[name]?.find((e) => e.title === example.title);
  if (!found) throw new Error(`no schema-docs example titled "${example.title}" for ${example.token}`);
  return found.dir;
}

const programs = schemaExamplePrograms(repoRoot);
const runnable = [...programs, pythonReadmeProgram()];

describe("schema.json's examples", () => {
  it("the Agent and each function have a program in TypeScript, Python, Go, Java and YAML", () => {
    const byToken = new Map<string, string[]>();
    for (const p of programs) byToken.set(p.token, [...(byToken.get(p.token) ?? []), p.language]);
    expect([...byToken.keys()].sort()).toEqual([
      "agent-hosting:index:Agent",
      "agent-hosting:index:getAgentLogs",
      "agent-hosting:index:getImageDigest",
      "agent-hosting:index:getSecretSet",
    ]);
    for (const [token, languages] of byToken) expect(languages.sort(), token).toEqual(["go", "java", "python", "typescript", "yaml"]);
  });
});

/** How each language's program runs: the CLI in its directory, or the Automation API. */
const HOW: Record<string, string> = { yaml: "with the CLI in its directory", java: "with the CLI in its Maven project" };

describe.each(runnable.map((p) => [`${p.token.split(":")[2] ?? p.token} in ${p.language} (${p.title})`, p] as const))("%s", (_label, example) => {
  let stack: StackDir;
  let program: { driver: StackDriver; at: DriverStack };
  let harvest: () => void = () => undefined;

  beforeAll(async () => {
    stack = stackDir(`schema-example-${exampleDir(example)}-${example.language}`);
    const runnable = runnableCode(example);
    program =
      runnable.language === "yaml"
        ? yamlDriver(runnable, stack)
        : runnable.language === "java"
          ? await javaDriver(runnable, stack, (h) => (harvest = h))
          : automationDriver(runnable, stack);
  }, 600_000);
  afterAll(() => {
    harvest();
    stack?.remove();
  });

  it(`runs ${HOW[example.language] ?? "through the Automation API"}: up after its preview of the new stack, a no-op preview, destroy`, async () => {
    const expectedOutputs = EXPECTED_OUTPUTS[exampleDir(example)];
    if (!expectedOutputs) throw new Error(`EXPECTED_OUTPUTS has no entry for schema-docs/examples/${exampleDir(example)}`);
    const texts = await runNewStack(program.driver, program.at, service, (live) => expectedOutputs(live, example.language));
    expect(texts.join("\n")).not.toContain(API_KEY);
  });
});
