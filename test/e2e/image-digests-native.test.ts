/**
 * Image digests on the native plugin: a Pulumi YAML program run with the CLI
 * in its directory (the installed plugin), against the real distribution
 * registry on 127.0.0.1: an anonymous one behind a counting proxy and a
 * private one (htpasswd Basic) whose credentials come from the stack setting
 * agent-hosting:registryAuth, written as structured config with the password
 * a secret. The stack sets agent-hosting:pinImageDigests true, which wins
 * over the variable that turns pinning off for every other test
 * (vitest.config.ts).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { startEmu, useEmulator } from "../support/emulator-fixture";
import type { Emu } from "../support/emulator-fixture";
import { startImageRegistry } from "../support/image-registry-fixture";
import type { RegistryProxy, RunningImageRegistry } from "../support/image-registry-fixture";
import { PRE_PINNING_API_KEY, PRE_PINNING_FILES, prePinningFile, prePinningText } from "./support/pre-pinning-state";
import { initStackWithConfig, pulumiCommands } from "./support/pulumi-command";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "native-digests-SECRET-key-3f90";

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 100 });
let program: StackDir;
let env: NodeJS.ProcessEnv;
let open: RunningImageRegistry;
let proxy: RegistryProxy;
let closed: RunningImageRegistry;
const cli = pulumiCommands(() => ({ cwd: program.workDir, env }));
const { ok, run } = cli;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function writeProgram(adopted?: string): void {
  const agent = (name: string, image: string, extra = "") =>
    `  ${name}:\n    type: agent-hosting:index:Agent\n    properties:\n      serviceName: native-digest-${name}\n      image: ${image}\n${extra}`;
  const resources = [
    agent("bot", `${proxy.host}/voice/bot:main`),
    agent("plain", `${proxy.host}/voice/plain:main`, "      pinImageDigest: false\n"),
    agent("private", `${closed.host}/private/bot:main`),
    ...(adopted ? [agent("adopted", `${proxy.host}/voice/bot:main`, `    options:\n      import: ${adopted}\n`)] : []),
  ];
  writeFileSync(join(program.workDir, "Pulumi.yaml"), `name: digests-yaml\nruntime: yaml\nresources:\n${resources.join("")}outputs:\n  botDigest: \${bot.imageDigest}\n`);
}

/** The image each agent's newest deployment runs at the emulator: what the service was sent. */
async function sentImages(emu: Emu = fx): Promise<Record<string, string | undefined>> {
  const { agents } = await emu.control.listAgents();
  return Object.fromEntries(agents.map((a) => [a.name, a.deployments.at(-1)?.image]));
}

beforeAll(async () => {
  [open, closed] = await Promise.all([startImageRegistry({ auth: "anonymous" }), startImageRegistry({ auth: "basic" })]);
  proxy = await open.proxy();
  program = stackDir("image-digests-native");
  const dockerConfig = mkdtempSync(join(program.workDir, "docker-"));
  writeFileSync(join(dockerConfig, "config.json"), JSON.stringify({ auths: {} }));
  env = { ...yamlProgramEnv(program.env), DOCKER_CONFIG: dockerConfig };
  writeProgram();
});

afterAll(async () => {
  await proxy?.close();
  await Promise.all([open?.close(), closed?.close()]);
  program?.remove();
});

describe("a YAML program's native Agents with pinning on", () => {
  it("refuses a private image without credentials, pins with registryAuth, shows a moved tag naming both digests, rolls it out, refreshes and imports without drift", async () => {
    const first = await open.pushImage("voice/bot", "main");
    await open.pushImage("voice/plain", "main");
    const privateDigest = await closed.pushImage("private/bot", "main");
    await initStackWithConfig(cli, fx.emulator);
    await ok("config", "set", "agent-hosting:pinImageDigests", "true");

    const refused = await run("preview");
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain(`registry ${closed.host}, repository private/bot, tag main`);
    expect(refused.out).toContain("HTTP 401");
    expect(refused.out).toContain(`docker login ${closed.host}`);
    expect(refused.out).toContain("agent-hosting:registryAuth");
    expect(refused.out).toContain("pinImageDigest: false");
    expect((await fx.control.listAgents()).agents).toEqual([]);

    // The setting as README.md's "Pinning images" writes it: structured config, the password a secret.
    await ok("config", "set", "--path", "agent-hosting:registryAuth[0].server", closed.host);
    await ok("config", "set", "--path", "agent-hosting:registryAuth[0].username", closed.username);
    await ok("config", "set", "--secret", "--path", "agent-hosting:registryAuth[0].password", closed.password);
    const asked = proxy.requests.length;
    await ok("preview");
    // One request for the pinned tag in the preview; none for pinImageDigest false.
    expect(proxy.requests.slice(asked).map((r) => `${r.method} ${r.path}`)).toEqual(["HEAD /v2/voice/bot/manifests/main"]);
    expect((await fx.control.listAgents()).agents).toEqual([]);

    await ok("up", "--yes");
    expect(await sentImages()).toEqual({
      "native-digest-bot": `${proxy.host}/voice/bot@${first}`,
      "native-digest-plain": `${proxy.host}/voice/plain:main`,
      "native-digest-private": `${closed.host}/private/bot@${privateDigest}`,
    });
    expect((await ok("stack", "output", "botDigest")).trim()).toBe(first);
    await ok("preview", "--expect-no-changes");

    const moved = await open.pushImage("voice/bot", "main");
    const review = await ok("preview", "--diff");
    expect(review).toMatch(new RegExp(`~ imageDigest\\s*: "${first}" => "${moved}"`));
    expect(review).toMatch(/1 to update/);
    await ok("up", "--yes");
    expect((await sentImages())["native-digest-bot"]).toBe(`${proxy.host}/voice/bot@${moved}`);
    expect((await ok("stack", "output", "botDigest")).trim()).toBe(moved);

    await ok("refresh", "--yes");
    await ok("preview", "--expect-no-changes");

    // An agent made outside Pulumi on the pinned image, imported under the tag that names it now: no diff.
    await fx.client.createAgent({ serviceName: "native-digest-adopted", image: `${proxy.host}/voice/bot@${moved}` });
    writeProgram("native-digest-adopted");
    const imported = await ok("up", "--yes");
    expect(imported).toMatch(/1 imported/);
    await ok("preview", "--expect-no-changes");
    await ok("destroy", "--yes");
    expect((await fx.control.listAgents()).agents).toEqual([]);

    const everything = [...cli.seen, ...filesUnder(program.backendDir).map((file) => readFileSync(file, "utf8"))].join("\n");
    expect(everything).not.toContain(closed.password);
    expect(everything).not.toContain(API_KEY);
  });

  // A stack deployed by the package before pinning (commit ee07798's plugin, which records no digest and sends the
  // tag), imported as its export with its emulator's state file: test/e2e/fixtures/pre-pinning-state/README.md.
  // Pinning is then on, as it is after the upgrade.
  it("upgrading: a stack deployed by the package before pinning previews with no change; the first up records the digest; a later push is an update", async () => {
    for (const name of PRE_PINNING_FILES) expect(prePinningText(name)).not.toContain(PRE_PINNING_API_KEY);
    // Written before pinning: the state records no digest.
    expect(prePinningText("native-stack-export.json")).not.toContain("imageDigest");
    const first = await open.pushImage("voice/old", "main");
    const image = `${proxy.host}/voice/old:main`;
    const old = stackDir("image-digests-native-upgrade");
    const emu = await startEmu({
      apiKey: PRE_PINNING_API_KEY,
      readyAfterMs: 100,
      stateFile: prePinningFile("emulator-state.json", { REGISTRY_HOST: proxy.host }, old.workDir),
    });
    const filled = { REGISTRY_HOST: proxy.host, EMULATOR_URL: emu.emulator.url };
    const upgraded = {
      cwd: old.workDir,
      env: { ...env, PULUMI_BACKEND_URL: old.env["PULUMI_BACKEND_URL"], PULUMI_HOME: old.env["PULUMI_HOME"], AGENT_HOSTING_PIN_IMAGE_DIGESTS: "true" },
    };
    const stack = pulumiCommands(() => upgraded);
    const writes = async () => (await emu.control.requests()).requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
    try {
      copyFileSync(prePinningFile("native-Pulumi.yaml", filled, old.workDir), join(old.workDir, "Pulumi.yaml"));
      expect(readFileSync(join(old.workDir, "Pulumi.yaml"), "utf8")).toContain(`image: ${image}\n`);
      await initStackWithConfig(stack, emu.emulator);
      await stack.ok("stack", "import", "--file", prePinningFile("native-stack-export.json", filled, old.workDir));
      expect((await sentImages(emu))["native-digest-old"]).toBe(image);

      const deployments = async () => (await emu.control.listAgents()).agents.find((a) => a.name === "native-digest-old")?.deployments.length;
      const before = await deployments();

      await stack.ok("preview", "--expect-no-changes");
      expect(await writes()).toEqual([]);
      await stack.ok("up", "--yes");
      // Nothing was sent: no new deployment, no write at all.
      expect(await deployments()).toBe(before);
      expect(await writes()).toEqual([]);
      const moved = await open.pushImage("voice/old", "main");
      const review = await stack.ok("preview", "--diff");
      expect(review).toMatch(new RegExp(`~ imageDigest\\s*: "${first}" => "${moved}"`));
      await stack.ok("up", "--yes");
      expect((await sentImages(emu))["native-digest-old"]).toBe(`${proxy.host}/voice/old@${moved}`);
      await stack.ok("destroy", "--yes");
      expect(stack.seen.join("\n")).not.toContain(PRE_PINNING_API_KEY);
    } finally {
      await emu.close();
      old.remove();
    }
  });
});
