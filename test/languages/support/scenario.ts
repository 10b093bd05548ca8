/**
 * The same story in every language, against the emulator, on the file
 * backend, under the real engine with the native plugin installed from its
 * tarball: up with the outputs and getSecretSet, a no-op preview, an update
 * in place, a rename that replaces, refresh after drift, a bad input failing
 * preview with the field named, import of an existing agent, destroy, and
 * two explicit providers against two emulators with different keys. The API
 * keys never reach the state or the engine's output.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentHostingClient } from "../../../src/client/client";
import { startEmu, type Emu } from "../../support/emulator-fixture";
import type { AgentParams, ProgramParams, StackConfig, StackOp } from "./drivers";
import type { StackDriver } from "../../support/stack-driver";
import type { OpResult } from "../../support/stack-driver";
import { stackDir, type StackDir } from "./stack-env";


function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** An expected exported object with its keys named as the driver's language exports them. */
function keyed<T>(value: T, keys: StackDriver["exportedKeys"] = "camelCase"): T {
  if (keys === "camelCase" || typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), keyed(v, keys)])) as T;
}

export function languageScenario(driver: StackDriver): void {
  const tag = driver.language.toLowerCase();
  const keyA = `${tag}-KEY-A-3f9c0d7e51`;
  const keyB = `${tag}-KEY-B-8a24b6c193`;
  let emulatorA: Emu;
  let emulatorB: Emu;
  let clientA: AgentHostingClient;
  let clientB: AgentHostingClient;
  let stack: StackDir;
  const seen: string[] = [];

  const config = (): StackConfig => ({
    "agent-hosting:baseUrl": { value: emulatorA.url },
    "agent-hosting:apiKey": { value: keyA, secret: true },
  });
  const agent = (serviceName: string, image: string): AgentParams => ({
    name: "bot",
    serviceName,
    image,
    secretSet: "voice-secrets",
    autoScaling: { minAgents: 1, maxAgents: 2 },
  });

  async function run(op: StackOp, params: ProgramParams, dir: StackDir = stack): Promise<OpResult> {
    const result = await driver.run(op, dir, params);
    seen.push(result.engineOutput, result.error ?? "");
    return result;
  }

  function expectOk(result: OpResult): void {
    expect(result.error ?? "", result.engineOutput).toBe("");
    expect(result.ok).toBe(true);
  }

  beforeAll(async () => {
    driver.prepare?.();
    emulatorA = await startEmu({ apiKey: keyA, readyAfterMs: 300, secretSets: { "voice-secrets": ["TOKEN", "SIP_PASSWORD"] } });
    emulatorB = await startEmu({ apiKey: keyB, readyAfterMs: 300, secretSets: {} });
    clientA = new AgentHostingClient({ baseUrl: emulatorA.url, apiKey: keyA });
    clientB = new AgentHostingClient({ baseUrl: emulatorB.url, apiKey: keyB });
    stack = stackDir(`languages-${tag}`);
  });

  afterAll(async () => {
    await clientA?.close();
    await clientB?.close();
    await emulatorA?.close();
    await emulatorB?.close();
    stack?.remove();
  });

  describe(`${driver.language}: an Agent through the native plugin`, () => {
    let firstDeployment = "";

    it("up (after its own preview of the new stack) creates the agent, exports activeDeploymentId and manifest, and the functions answer", async () => {
      // Output-form functions reading the agent are unknown while the up's preview creates it, and run in the update. A
      // separate preview before the up would run that same preview again; that a preview creates nothing is shown in
      // each language by test/e2e/examples.test.ts.
      const first = { config: config(), agents: [{ ...agent(`${tag}-bot`, "registry.example.com/bot:1.0"), reads: true }], secretSets: ["voice-secrets"] };
      const up = await run("up", first);
      expectOk(up);
      expect(up.previewChangeSummary?.["create"], "the up's own preview of the new stack").toBe(2);
      // The driver's preview and update both saw the agent's create (the comparison has something to compare).
      expect(Object.values(up.agentOperations?.preview ?? {})).toEqual([["create"]]);
      expect(Object.values(up.agentOperations?.update ?? {})).toEqual([["create"]]);
      // getAgentLogs' limit 5 of the agent's five lines (its ready deployment's, test/support/emulator-log-lines.ts).
      expect(up.outputs["bot.logCount"]).toBe(5);
      expect(up.outputs["bot.secretFields"]).toEqual(["TOKEN", "SIP_PASSWORD"]);
      expect(up.changeSummary["create"]).toBe(2); // the stack and the agent
      firstDeployment = String(up.outputs["bot.activeDeploymentId"]);
      const live = await clientA.getAgent(`${tag}-bot`);
      expect(live.ready).toBe(true);
      expect(firstDeployment).toBe(live.activeDeploymentId);
      expect(up.outputs["bot.id"]).toBe(`${tag}-bot`);
      expect(up.outputs["bot.manifest"]).toMatchObject(
        keyed(
          {
            kind: "Agent",
            metadata: { name: `${tag}-bot` },
            spec: { image: "registry.example.com/bot:1.0", envFromSecretNames: ["voice-secrets"], autoScaling: { minReplicas: 1, maxReplicas: 2 } },
          },
          driver.exportedKeys,
        ),
      );
      expect(up.outputs["secretSet.voice-secrets"]).toEqual(["TOKEN", "SIP_PASSWORD"]);
    });

    it("a preview of the same program shows no changes", async () => {
      const preview = await run("preview", { config: config(), agents: [agent(`${tag}-bot`, "registry.example.com/bot:1.0")] });
      expectOk(preview);
      expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
    });

    it("a new image updates the agent in place with a new deployment", async () => {
      const up = await run("up", { config: config(), agents: [agent(`${tag}-bot`, "registry.example.com/bot:2.0")] });
      expectOk(up);
      expect(up.changeSummary["update"]).toBe(1);
      expect(up.changeSummary["replace"]).toBeUndefined();
      expect(up.outputs["bot.activeDeploymentId"]).not.toBe(firstDeployment);
      expect((await clientA.getAgent(`${tag}-bot`)).deployment?.manifest?.spec?.["image"]).toBe("registry.example.com/bot:2.0");
    });

    it("a new serviceName replaces the agent", async () => {
      const up = await run("up", { config: config(), agents: [agent(`${tag}-bot-renamed`, "registry.example.com/bot:2.0")] });
      expectOk(up);
      expect(up.changeSummary["replace"]).toBe(1);
      expect(up.outputs["bot.id"]).toBe(`${tag}-bot-renamed`);
      await expect(clientA.getAgent(`${tag}-bot`)).rejects.toThrow(/404|not found/i);
      expect((await clientA.getAgent(`${tag}-bot-renamed`)).ready).toBe(true);
    });

    it("refresh picks up a change made outside Pulumi, and up restores the declared image", async () => {
      await clientA.updateAgent(`${tag}-bot-renamed`, {
        image: "registry.example.com/bot:drifted",
        secretSet: "voice-secrets",
        autoScaling: { minAgents: 1, maxAgents: 2 },
      });
      const refresh = await run("refresh", { config: config(), agents: [agent(`${tag}-bot-renamed`, "registry.example.com/bot:2.0")] });
      expectOk(refresh);
      expect(refresh.changeSummary["update"]).toBe(1);
      const preview = await run("preview", { config: config(), agents: [agent(`${tag}-bot-renamed`, "registry.example.com/bot:2.0")] });
      expectOk(preview);
      expect(preview.changeSummary["update"]).toBe(1);
      expect(preview.engineOutput).toMatch(/image/);
      const up = await run("up", { config: config(), agents: [agent(`${tag}-bot-renamed`, "registry.example.com/bot:2.0")] });
      expectOk(up);
      expect((await clientA.getAgent(`${tag}-bot-renamed`)).deployment?.manifest?.spec?.["image"]).toBe("registry.example.com/bot:2.0");
    });

    it("a bad input fails the preview, naming the field and the rule, and sends nothing", async () => {
      const before = (await clientA.getAgent(`${tag}-bot-renamed`)).updatedAt;
      const preview = await run("preview", { config: config(), agents: [agent("Bad_Name", "registry.example.com/bot:2.0")] });
      expect(preview.ok).toBe(false);
      expect(`${preview.error ?? ""}${preview.engineOutput}`).toMatch(/serviceName[^\n]*must match/);
      expect((await clientA.getAgent(`${tag}-bot-renamed`)).updatedAt).toBe(before);
    });

    it("the import option adopts an agent that already exists, with no change", async () => {
      await clientA.createAgent({ serviceName: `${tag}-existing`, image: "registry.example.com/old:3.1", enableNoise: true });
      const existing = { name: "old", serviceName: `${tag}-existing`, image: "registry.example.com/old:3.1", enableNoise: true };
      const params: ProgramParams = {
        config: config(),
        agents: [agent(`${tag}-bot-renamed`, "registry.example.com/bot:2.0"), { ...existing, import: `${tag}-existing` }],
      };
      const up = await run("up", params);
      expectOk(up);
      expect(up.changeSummary["import"]).toBe(1);
      expect(up.outputs["old.id"]).toBe(`${tag}-existing`);
      expect(up.outputs["old.manifest"]).toMatchObject(keyed({ spec: { image: "registry.example.com/old:3.1", noiseModels: { enabled: true } } }, driver.exportedKeys));
      const preview = await run("preview", { config: config(), agents: [agent(`${tag}-bot-renamed`, "registry.example.com/bot:2.0"), existing] });
      expectOk(preview);
      expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
    });

    it("an agent that never becomes ready fails up and stays in the state", async () => {
      const existing = { name: "old", serviceName: `${tag}-existing`, image: "registry.example.com/old:3.1", enableNoise: true };
      const broken = { name: "broken", serviceName: `${tag}-broken`, image: "registry.example.com/bot:fail", readyTimeoutSeconds: 6 };
      const params = { config: config(), agents: [agent(`${tag}-bot-renamed`, "registry.example.com/bot:2.0"), existing, broken] };
      const up = await run("up", params);
      expect(up.ok).toBe(false);
      // The seconds it names are the ones it waited (readyTimeoutSeconds, or more on a busy machine).
      expect(`${up.error ?? ""}${up.engineOutput}`).toMatch(new RegExp(`agent "${tag}-broken" did not become ready within \\d+ s after create`));
      expect((await clientA.getAgent(`${tag}-broken`)).ready).toBe(false);
      // While it waited (a progress line comes after 5 s), the plugin reported its progress on the agent's own row.
      expect(up.engineOutput).toMatch(new RegExp(`Agent broken creating[^\n]*agent "${tag}-broken": waiting for readiness`));
      // In the state: the same program previews no create for it (a lost agent would be created again).
      const preview = await run("preview", params);
      expectOk(preview);
      expect(preview.changeSummary["create"]).toBeUndefined();
    });

    it("destroy deletes every agent of the stack", async () => {
      const destroy = await run("destroy", { config: config() });
      expectOk(destroy);
      expect(destroy.changeSummary["delete"]).toBe(4); // three agents and the stack
      const left = await (await fetch(`${emulatorA.url}/agents`, { headers: { authorization: `Bearer ${keyA}` } })).json();
      expect(JSON.stringify(left)).not.toMatch(new RegExp(`${tag}-(bot|existing|broken)`));
    });

    it("two explicit providers manage agents of two accounts, each with its own key", async () => {
      const two = stackDir(`languages-${tag}-two`);
      try {
        const params: ProgramParams = {
          providers: { one: { apiKey: keyA, baseUrl: emulatorA.url }, two: { apiKey: keyB, baseUrl: emulatorB.url } },
          agents: [
            { name: "a", serviceName: `${tag}-account-a`, image: "registry.example.com/a:1", provider: "one" },
            { name: "b", serviceName: `${tag}-account-b`, image: "registry.example.com/b:1", provider: "two" },
          ],
        };
        const up = await run("up", params, two);
        expectOk(up);
        expect((await clientA.getAgent(`${tag}-account-a`)).ready).toBe(true);
        expect((await clientB.getAgent(`${tag}-account-b`)).ready).toBe(true);
        await expect(clientA.getAgent(`${tag}-account-b`)).rejects.toThrow(/404|not found/i);
        await expect(clientB.getAgent(`${tag}-account-a`)).rejects.toThrow(/404|not found/i);
        for (const file of filesUnder(two.backendDir)) {
          const text = readFileSync(file, "utf8");
          expect(text, file).not.toContain(keyA);
          expect(text, file).not.toContain(keyB);
        }
        expectOk(await run("destroy", params, two));
        await expect(clientB.getAgent(`${tag}-account-b`)).rejects.toThrow(/404|not found/i);
      } finally {
        two.remove();
      }
    });

    it("no API key reached the state or the engine's output", () => {
      for (const file of filesUnder(stack.backendDir)) {
        const text = readFileSync(file, "utf8");
        expect(text, file).not.toContain(keyA);
        expect(text, file).not.toContain(keyB);
      }
      for (const text of seen) {
        expect(text).not.toContain(keyA);
        expect(text).not.toContain(keyB);
      }
    });
  });
}
