/**
 * A moved tag from a Python program (the generated SDK in sdk/python, the
 * native plugin installed from its tarball), through Pulumi's Python
 * Automation API (test/languages/python/stack_op.py), against the real
 * distribution registry on 127.0.0.1: up sends `name@sha256:…`, a push to
 * the tag previews as an update naming both digests, and up rolls it out.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonDriver } from "../languages/support/drivers";
import type { ProgramParams } from "../languages/support/drivers";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { useEmulator } from "../support/emulator-fixture";
import { startImageRegistry } from "../support/image-registry-fixture";
import type { RunningImageRegistry } from "../support/image-registry-fixture";
import type { OpResult } from "../support/stack-driver";

const API_KEY = "python-digests-SECRET-key-5b17";
const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 100 });
let registry: RunningImageRegistry;
let stack: StackDir;

beforeAll(async () => {
  pythonDriver.prepare?.();
  registry = await startImageRegistry({ auth: "anonymous" });
  stack = stackDir("image-digests-python");
  // No test reads the machine's own docker logins.
  writeFileSync(join(stack.workDir, "config.json"), JSON.stringify({ auths: {} }));
  stack.env["DOCKER_CONFIG"] = stack.workDir;
});

afterAll(async () => {
  await registry?.close();
  stack?.remove();
});

async function sentImage(name: string): Promise<string | undefined> {
  const { agents } = await fx.control.listAgents();
  return agents.find((a) => a.name === name)?.deployments.at(-1)?.image;
}

describe("a Python program's Agent on a tag that moves", () => {
  it("up sends name@sha256, a push previews as an update naming both digests, and up rolls it out", async () => {
    const first = await registry.pushImage("voice/bot", "main");
    const params: ProgramParams = {
      config: {
        "agent-hosting:baseUrl": { value: fx.emulator.url },
        "agent-hosting:apiKey": { value: API_KEY, secret: true },
        "agent-hosting:pinImageDigests": { value: "true" },
      },
      agents: [{ name: "bot", serviceName: "py-digest-bot", image: `${registry.host}/voice/bot:main` }],
    };
    const seen: string[] = [];
    const run = async (op: "up" | "preview" | "destroy"): Promise<OpResult> => {
      const result = await pythonDriver.run(op, stack, params);
      seen.push(result.engineOutput, result.error ?? "");
      expect(result.error ?? "", result.engineOutput).toBe("");
      return result;
    };

    await run("up");
    expect(await sentImage("py-digest-bot")).toBe(`${registry.host}/voice/bot@${first}`);
    expect((await run("preview")).changeSummary).toEqual({ same: 2 });

    const moved = await registry.pushImage("voice/bot", "main");
    const review = await run("preview");
    expect(review.changeSummary).toEqual({ same: 1, update: 1 });
    expect(review.engineOutput).toMatch(new RegExp(`imageDigest\\s*: "${first}" => "${moved}"`));
    await run("up");
    expect(await sentImage("py-digest-bot")).toBe(`${registry.host}/voice/bot@${moved}`);

    await run("destroy");
    expect(seen.join("\n")).not.toContain(API_KEY);
  });
});
