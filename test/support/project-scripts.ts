/**
 * The tests' one door to the project's scripts/ directory: what the tests
 * read from its modules (release names, the Maven repository, the Java SDK
 * writer, the Go and Python tool caches, the engine-event recorder), and the
 * paths of the scripts they run. No other test file imports from scripts/
 * or names a script's path; they import from here.
 */
import { join, resolve } from "node:path";

/** The repository's root. */
export const PROJECT_ROOT = resolve(__dirname, "../..");

/** The scripts/ directory, relative to the root (a source of the cached release's hash). */
export const SCRIPTS_LIB_DIR = join("scripts", "lib");

/** The scripts the tests run, by absolute path. */
export const SCRIPT = {
  /** Runs one stack operation of an inline program through the Automation API (the TypeScript driver). */
  stackOp: join(PROJECT_ROOT, "scripts", "stack-op.mjs"),
  /** stack-op.mjs kept loaded in a forked child: one operation per IPC request (test/support/stack-op-hosts.ts). */
  stackOpHost: join(PROJECT_ROOT, "scripts", "stack-op-host.mjs"),
  /** Links the package into its own node_modules, as npm does on install. */
  linkSelf: join(PROJECT_ROOT, "scripts", "link-self.mjs"),
  /** Writes the SDKs; `--check` compares them with the committed ones. */
  genSdk: join(PROJECT_ROOT, "scripts", "gen-sdk.mjs"),
  /** Packs the plugin tarball into the directory given; prints its path. */
  packPlugin: join(PROJECT_ROOT, "scripts", "pack-plugin.mjs"),
  /** Installs an exact Node release on first use; prints its directory. */
  nodeVersion: join(PROJECT_ROOT, "scripts", "node-version.mjs"),
  /** Builds or reuses the pulumi CLI; prints its directory. */
  pulumiCli: join(PROJECT_ROOT, "scripts", "pulumi-cli.sh"),
  /** Builds or reuses Pulumi YAML's language host; prints its directory. */
  pulumiYaml: join(PROJECT_ROOT, "scripts", "pulumi-yaml.sh"),
} as const;

/** The environment variable naming the plugin tarball the suite's global setup packed with SCRIPT.packPlugin. */
export const PLUGIN_TARBALL_ENV = "AGENT_HOSTING_TEST_PLUGIN_TARBALL";

export { cachedVenv } from "../../scripts/lib/cached-venv.mjs";
export { cacheRoot, goBinary, goEnv, goProgram, sourceHash } from "../../scripts/lib/go-tool.mjs";
export { generateJavaSdk, githubRepository, javaPackage, mavenCoordinates, pluginJson, pomXml, resourceDir, type PackageSchemaForJava } from "../../scripts/lib/java-sdk.mjs";
export {
  applyReadmeTables,
  renderAnswerTypes,
  renderFunctionTypes,
  renderModelTypes,
  renderReadmeTables,
  renderRequestTypes,
  renderResourceTypes,
} from "../../scripts/lib/model-render.mjs";
export { NODE_RELEASES } from "../../scripts/lib/node-releases.mjs";
export { agentOperationRecorder, disagreementMessage, isAgentType, operationDisagreements, type AgentOperations } from "../../scripts/lib/operations.mjs";
export { hostTarget, launcher } from "../../scripts/lib/release/plugin-package.mjs";
export { imageRegistryTools } from "../../scripts/lib/image-registry.mjs";
export { pulumiJavaDir, pulumiJavaVersion } from "../../scripts/lib/pulumi-java.mjs";
export { mavenArtifactPaths, mavenRepositoryFiles, writeMavenRepository } from "../../scripts/lib/release/maven-repository.mjs";
export {
  CHECKSUMS_FILE,
  GOPROXY_DIR,
  MAVEN_DIR,
  npmTarballName,
  PLUGIN_TARGETS,
  pluginTarballName,
  RELEASE_DIR,
  releaseFileNames,
  releaseVersion,
  sdistName,
  wheelName,
} from "../../scripts/lib/release/names.mjs";
export { sourceDateEpoch } from "../../scripts/lib/release/source-date.mjs";
export { writeRelease } from "../../scripts/lib/release/write-release.mjs";
