/**
 * getImageDigest from a Python program (its Output form, through the native
 * plugin's invoke), under the real CLI, against the real distribution
 * registry with htpasswd `Basic` auth: refused while the stack names no
 * credential, with the registry, repository, tag, status and fix; with
 * agent-hosting:registryAuth set as the docs set it (`pulumi config set
 * --path`, the password `--secret`), the digest crane reads, and after the
 * tag is pushed again, the new one. The stack sets nothing of the service
 * (no key, no base URL): the function asks the registry only. The
 * registry's password is in no engine output and no file of the stack.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StackConfig } from "../languages/support/drivers";
import { stackDir } from "../languages/support/stack-env";
import type { StackDir } from "../languages/support/stack-env";
import { startImageRegistry } from "../support/image-registry-fixture";
import type { RunningImageRegistry } from "../support/image-registry-fixture";
import { pythonRunner } from "../support/program-runners";
import { runPulumi } from "./support/pulumi-command";

let registry: RunningImageRegistry;
let stack: StackDir;
let dockerConfig: string;

const program = (image: string): string =>
  [
    "import pulumi",
    "import pulumi_agent_hosting as agent_hosting",
    "",
    `build = agent_hosting.get_image_digest_output(image="${image}")`,
    "",
    'pulumi.export("digest", build.digest)',
    'pulumi.export("pinnedImage", build.pinned_image)',
    "",
  ].join("\n");

/** No setting of the service: getImageDigest asks the registry only. */
const config: StackConfig = {};

/** agent-hosting:registryAuth as docs/installation-configuration.md sets it, on the driver's stack "dev". */
async function setRegistryAuth(): Promise<void> {
  const entry = "agent-hosting:registryAuth[0]";
  for (const args of [
    ["--path", `${entry}.server`, registry.host],
    ["--path", `${entry}.username`, registry.username],
    ["--secret", "--path", `${entry}.password`, registry.password],
  ]) {
    const set = await runPulumi(["config", "set", "--stack", "dev", ...args], stack.workDir, stack.env);
    expect(set.code, set.stderr).toBe(0);
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  registry = await startImageRegistry({ auth: "basic" });
  stack = stackDir("get-image-digest-python");
  // No docker login of this machine counts: an empty docker config directory for the plugin.
  dockerConfig = mkdtempSync(join(tmpdir(), "get-image-digest-docker-"));
  stack.env["DOCKER_CONFIG"] = dockerConfig;
}, 600_000);

afterAll(async () => {
  stack?.remove();
  rmSync(dockerConfig, { recursive: true, force: true });
  await registry?.close();
});

describe("getImageDigest in Python, through the native plugin", () => {
  it("refused without credentials; the digest with registryAuth; the new digest once the tag is pushed again; no password anywhere", async () => {
    const first = await registry.pushImage("voice-bot", "main");
    const image = `${registry.host}/voice-bot:main`;
    const texts: string[] = [];

    const driver = pythonRunner(program(image), config);
    const refused = await driver.run("preview", stack);
    texts.push(refused.engineOutput, refused.error ?? "");
    expect(refused.ok).toBe(false);
    for (const part of [registry.host, "voice-bot", "main", "401", "docker login", "agent-hosting:registryAuth"]) {
      expect(refused.engineOutput + (refused.error ?? "")).toContain(part);
    }

    await setRegistryAuth();
    // The up's own preview reads the digest too (a preview before it would run that same preview again).
    const up = await driver.run("up", stack);
    texts.push(up.engineOutput);
    expect(up.ok, up.engineOutput).toBe(true);
    expect(up.previewChangeSummary, "the up's own preview of the stack").toEqual({ create: 1 });
    expect(up.outputs).toEqual({ digest: first, pinnedImage: `${registry.host}/voice-bot@${first}` });

    const second = await registry.pushImage("voice-bot", "main");
    expect(second).not.toBe(first);
    const moved = await driver.run("up", stack);
    texts.push(moved.engineOutput);
    expect(moved.ok, moved.engineOutput).toBe(true);
    expect(moved.outputs).toEqual({ digest: second, pinnedImage: `${registry.host}/voice-bot@${second}` });

    for (const text of texts) {
      expect(text).not.toContain(registry.password);
    }
    for (const file of filesUnder(join(stack.workDir, ".state", "backend"))) {
      const content = readFileSync(file, "utf8");
      expect(content, file).not.toContain(registry.password);
    }
  });
});
