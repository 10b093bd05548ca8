/**
 * Image digests on the dynamic provider: a TypeScript program (through the
 * Automation API, test/e2e/support/stack.ts) against the real distribution
 * registry on 127.0.0.1 (test/support/image-registry-fixture.ts), whose
 * loopback address the resolver reaches over plain http. The stacks set
 * agent-hosting:pinImageDigests true, which wins over the variable that
 * turns pinning off for every other test (vitest.config.ts). What the
 * service was sent is read from the emulator's deployments; what the
 * registry was asked, from a counting proxy in front of it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmu, useEmulator } from "../support/emulator-fixture";
import type { Emu } from "../support/emulator-fixture";
import { startImageRegistry } from "../support/image-registry-fixture";
import type { RegistryProxy, RunningImageRegistry } from "../support/image-registry-fixture";
import { PRE_PINNING_API_KEY, PRE_PINNING_FILES, prePinningFile, prePinningText } from "./support/pre-pinning-state";
import { e2eStack, exportedState } from "./support/stack";
import type { OpResult, StackHandle } from "./support/stack";
import { succeeded } from "./support/succeeded";

const API_KEY = "e2e-SECRET-image-digests-7d21";
const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 100 });
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "image-digests-e2e-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function config(extra: Record<string, { value: string; secret?: boolean }> = {}) {
  return {
    "agent-hosting:baseUrl": { value: fx.emulator.url },
    "agent-hosting:apiKey": { value: API_KEY, secret: true },
    "agent-hosting:pinImageDigests": { value: "true" },
    ...extra,
  };
}

/** A docker config directory with nothing in it, so no test reads the machine's own logins. */
function emptyDockerConfig(): string {
  const dir = mkdtempSync(join(scratch, "docker-empty-"));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ auths: {} }));
  return dir;
}

/** The image each agent's newest deployment runs at the emulator: what the service was sent. */
async function sentImages(emu: Emu = fx): Promise<Record<string, string | undefined>> {
  const { agents } = await emu.control.listAgents();
  return Object.fromEntries(agents.map((a) => [a.name, a.deployments.at(-1)?.image]));
}

/** An agent's outputs and inputs in the stack's state. */
async function stateOf(stack: StackHandle, resource: string): Promise<{ outputs: Record<string, unknown>; inputs: Record<string, unknown> }> {
  const state = await exportedState(stack);
  const found = state.deployment?.resources?.find((r) => String(r["urn"]).endsWith(`::${resource}`));
  if (!found) throw new Error(`no resource ${resource} in the state`);
  return { outputs: found["outputs"] as Record<string, unknown>, inputs: found["inputs"] as Record<string, unknown> };
}

function ran(result: OpResult, texts: string[]): OpResult {
  texts.push(result.engineOutput, result.error ?? "", JSON.stringify(result.outputs));
  return result;
}

describe("an anonymous registry: pinning, a moved tag, and what asks nothing", () => {
  let registry: RunningImageRegistry;
  let proxy: RegistryProxy;

  beforeAll(async () => {
    registry = await startImageRegistry({ auth: "anonymous" });
    proxy = await registry.proxy();
  });
  afterAll(async () => {
    await proxy?.close();
    await registry?.close();
  });

  const manifestRequests = () => proxy.requests.filter((r) => r.path.includes("/manifests/")).map((r) => `${r.method} ${r.path}`);

  it("previews a new stack with one request, sends name@sha256, shows a moved tag as an update naming both digests and rolls it out", async () => {
    const first = await registry.pushImage("voice/bot", "main");
    const fixed = await registry.pushImage("voice/fixed", "v1");
    await registry.pushImage("voice/plain", "main");
    const image = `${proxy.host}/voice/bot:main`;
    const params = {
      agents: [
        { resource: "bot", args: { serviceName: "digest-bot", image } },
        { resource: "twin", args: { serviceName: "digest-twin", image } },
        { resource: "plain", args: { serviceName: "digest-plain", image: `${proxy.host}/voice/plain:main`, pinImageDigest: false } },
        { resource: "fixed", args: { serviceName: "digest-fixed", image: `${proxy.host}/voice/fixed@${fixed}` } },
      ],
    };
    const stack = e2eStack("image-digests", { baseUrl: fx.emulator.url, apiKey: API_KEY, config: config() });
    const env = { DOCKER_CONFIG: emptyDockerConfig() };
    const texts: string[] = [];
    try {
      const preview = ran(await stack.run("preview", { params, env }), texts);
      expect(preview.error).toBeUndefined();
      expect(preview.changeSummary).toEqual({ create: 5 });
      // Two agents on one tag: one request in the run; pinImageDigest false and the digest-form image: none.
      expect(manifestRequests()).toEqual([`HEAD /v2/voice/bot/manifests/main`]);
      expect((await fx.control.listAgents()).agents).toEqual([]);

      const up = ran(await stack.run("up", { params, env }), texts);
      expect(up.error).toBeUndefined();
      expect(await sentImages()).toEqual({
        "digest-bot": `${proxy.host}/voice/bot@${first}`,
        "digest-twin": `${proxy.host}/voice/bot@${first}`,
        "digest-plain": `${proxy.host}/voice/plain:main`,
        "digest-fixed": `${proxy.host}/voice/fixed@${fixed}`,
      });
      const pinned = await stateOf(stack, "bot");
      expect(pinned.outputs).toMatchObject({ image, imageDigest: first });
      expect(pinned.inputs).toMatchObject({ image, imageDigest: first });
      expect((await stateOf(stack, "plain")).outputs["imageDigest"]).toBeUndefined();
      expect((await stateOf(stack, "fixed")).outputs["imageDigest"]).toBeUndefined();

      expect(ran(await stack.run("preview", { params, env }), texts).changeSummary).toEqual({ same: 5 });

      const moved = await registry.pushImage("voice/bot", "main");
      expect(moved).not.toBe(first);
      const review = ran(await stack.run("preview", { params, env }), texts);
      expect(review.error).toBeUndefined();
      expect(review.changeSummary).toEqual({ same: 3, update: 2 });
      expect(review.engineOutput).toMatch(new RegExp(`imageDigest\\s*: "${first}" => "${moved}"`));

      const rollout = ran(await stack.run("up", { params, env }), texts);
      expect(rollout.error).toBeUndefined();
      expect(rollout.changeSummary).toMatchObject({ update: 2 });
      const sent = await sentImages();
      expect(sent["digest-bot"]).toBe(`${proxy.host}/voice/bot@${moved}`);
      expect(sent["digest-twin"]).toBe(`${proxy.host}/voice/bot@${moved}`);
      expect(sent["digest-plain"]).toBe(`${proxy.host}/voice/plain:main`);
      expect((await stateOf(stack, "bot")).outputs).toMatchObject({ image, imageDigest: moved });

      // Refresh reads the service's name@sha256 back as the tag and the digest: no drift, and the next preview is clean.
      const refresh = ran(await stack.run("refresh", { params, env }), texts);
      expect(refresh.error).toBeUndefined();
      expect(refresh.changeSummary).toEqual({ same: 5 });
      expect(ran(await stack.run("preview", { params, env }), texts).changeSummary).toEqual({ same: 5 });

      expect(manifestRequests().every((r) => r === "HEAD /v2/voice/bot/manifests/main")).toBe(true);
      succeeded(ran(await stack.run("destroy", { env }), texts));
      expect(texts.join("\n")).not.toContain(API_KEY);
    } finally {
      stack.remove();
    }
  });

  // A stack deployed by the package before pinning (commit ee07798, which records no digest and sends the tag),
  // imported as its export and its emulator's state file: test/e2e/fixtures/pre-pinning-state/README.md.
  it("upgrading: a stack deployed by the package before pinning previews clean and sends nothing; the first up records the digest; a later push is an update", async () => {
    for (const name of PRE_PINNING_FILES) expect(prePinningText(name)).not.toContain(PRE_PINNING_API_KEY);
    const first = await registry.pushImage("voice/old", "main");
    const image = `${proxy.host}/voice/old:main`;
    const emu = await startEmu({
      apiKey: PRE_PINNING_API_KEY,
      readyAfterMs: 100,
      stateFile: prePinningFile("emulator-state.json", { REGISTRY_HOST: proxy.host }, scratch),
    });
    const filled = { REGISTRY_HOST: proxy.host, EMULATOR_URL: emu.emulator.url };
    const params = JSON.parse(readFileSync(prePinningFile("params.json", filled, scratch), "utf8")) as unknown;
    expect(params).toEqual({ agents: [{ resource: "old", args: { serviceName: "digest-old", image } }] });
    const stack = e2eStack("image-digests-upgrade", { baseUrl: emu.emulator.url, apiKey: PRE_PINNING_API_KEY });
    const pinning = { DOCKER_CONFIG: emptyDockerConfig(), AGENT_HOSTING_PIN_IMAGE_DIGESTS: "true" };
    const writes = async () => (await emu.control.requests()).requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
    const texts: string[] = [];
    try {
      expect(ran(await stack.run("import-state", { stateFile: prePinningFile("stack-export.json", filled, scratch) }), texts).error).toBeUndefined();
      expect((await sentImages(emu))["digest-old"]).toBe(image);
      expect((await stateOf(stack, "old")).inputs["imageDigest"]).toBeUndefined();

      const preview = ran(await stack.run("preview", { params, env: pinning }), texts);
      expect(preview.error).toBeUndefined();
      expect(preview.changeSummary).toEqual({ same: 2 });
      expect(await writes()).toEqual([]);
      const up = ran(await stack.run("up", { params, env: pinning }), texts);
      expect(up.error).toBeUndefined();
      expect(up.changeSummary).toEqual({ same: 2 });
      expect(await writes()).toEqual([]);
      expect((await sentImages(emu))["digest-old"]).toBe(image);
      // The step without changes recorded the digest in the state's inputs.
      expect((await stateOf(stack, "old")).inputs["imageDigest"]).toBe(first);

      const moved = await registry.pushImage("voice/old", "main");
      const review = ran(await stack.run("preview", { params, env: pinning }), texts);
      expect(review.changeSummary).toEqual({ same: 1, update: 1 });
      expect(review.engineOutput).toMatch(new RegExp(`imageDigest\\s*: "${first}" => "${moved}"`));
      expect(ran(await stack.run("up", { params, env: pinning }), texts).error).toBeUndefined();
      expect((await sentImages(emu))["digest-old"]).toBe(`${proxy.host}/voice/old@${moved}`);
      expect((await stateOf(stack, "old")).outputs).toMatchObject({ image, imageDigest: moved });
      succeeded(ran(await stack.run("destroy", { env: pinning }), texts));
      expect(texts.join("\n")).not.toContain(PRE_PINNING_API_KEY);
    } finally {
      stack.remove();
      await emu.close();
    }
  });

  it("fails the preview on a tag the registry does not have, naming it and the fix; nothing is sent", async () => {
    const params = { agents: [{ resource: "ghost", args: { serviceName: "digest-ghost", image: `${registry.host}/voice/ghost:nope` } }] };
    const stack = e2eStack("image-digests-missing", { baseUrl: fx.emulator.url, apiKey: API_KEY, config: config() });
    try {
      const preview = await stack.run("preview", { params, env: { DOCKER_CONFIG: emptyDockerConfig() } });
      expect(preview.ok).toBe(false);
      const text = `${preview.engineOutput}\n${preview.error ?? ""}`;
      expect(text).toContain(`registry ${registry.host}, repository voice/ghost, tag nope`);
      expect(text).toContain("HTTP 404");
      expect(text).toContain("pinImageDigest: false");
      expect(text).toContain("agent-hosting:pinImageDigests false");
      expect(text).toContain('agent "digest-ghost": nothing was sent');
      expect((await fx.control.listAgents()).agents.map((a) => a.name)).not.toContain("digest-ghost");
    } finally {
      stack.remove();
    }
  });
});

describe("a private registry (htpasswd Basic)", () => {
  let registry: RunningImageRegistry;

  beforeAll(async () => {
    registry = await startImageRegistry({ auth: "basic" });
  });
  afterAll(async () => {
    await registry?.close();
  });

  it("refuses without credentials, naming the registry, repository, tag, status and fixes; resolves with docker login's file and with registryAuth; the password is nowhere", async () => {
    const digest = await registry.pushImage("private/bot", "main");
    const image = `${registry.host}/private/bot:main`;
    const params = { agents: [{ resource: "secret-bot", args: { serviceName: "digest-private", image } }] };
    const texts: string[] = [];

    const bare = e2eStack("image-digests-private", { baseUrl: fx.emulator.url, apiKey: API_KEY, config: config() });
    try {
      const refused = ran(await bare.run("preview", { params, env: { DOCKER_CONFIG: emptyDockerConfig() } }), texts);
      expect(refused.ok).toBe(false);
      const text = `${refused.engineOutput}\n${refused.error ?? ""}`;
      expect(text).toContain(`registry ${registry.host}, repository private/bot, tag main`);
      expect(text).toContain("HTTP 401");
      expect(text).toContain(`docker login ${registry.host}`);
      expect(text).toContain("agent-hosting:registryAuth");
      expect(text).toContain("pinImageDigest: false");

      // docker login's file, found through DOCKER_CONFIG.
      const loggedIn = mkdtempSync(join(scratch, "docker-login-"));
      const auth = Buffer.from(`${registry.username}:${registry.password}`).toString("base64");
      writeFileSync(join(loggedIn, "config.json"), JSON.stringify({ auths: { [registry.host]: { auth } } }));
      const withLogin = ran(await bare.run("preview", { params, env: { DOCKER_CONFIG: loggedIn } }), texts);
      expect(withLogin.error).toBeUndefined();
      expect(withLogin.changeSummary).toEqual({ create: 2 });
    } finally {
      bare.remove();
    }

    const entries = JSON.stringify([{ server: registry.host, username: registry.username, password: registry.password }]);
    const withAuth = e2eStack("image-digests-registry-auth", {
      baseUrl: fx.emulator.url,
      apiKey: API_KEY,
      config: config({ "agent-hosting:registryAuth": { value: entries, secret: true } }),
    });
    try {
      const env = { DOCKER_CONFIG: emptyDockerConfig() };
      const up = ran(await withAuth.run("up", { params, env }), texts);
      expect(up.error).toBeUndefined();
      expect((await sentImages())["digest-private"]).toBe(`${registry.host}/private/bot@${digest}`);
      const state = await exportedState(withAuth);
      texts.push(JSON.stringify(state));
      succeeded(ran(await withAuth.run("destroy", { env }), texts));
    } finally {
      withAuth.remove();
    }
    const everything = texts.join("\n");
    expect(everything).not.toContain(registry.password);
    expect(everything).not.toContain(API_KEY);
  });
});
