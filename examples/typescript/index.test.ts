import * as pulumi from "@pulumi/pulumi";
import { agentHostingMocks } from "pulumi-agent-hosting/testing";
import { beforeAll, describe, expect, it } from "vitest";

// The program runs against mocks that answer as the service does: nothing is created, no account is needed.
const valueOf = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

let program: typeof import("./index");
// The digest the image's tag names, as the registry would answer it: the agent runs the image pinned to it.
const DIGEST = `sha256:${"4".repeat(64)}`;

beforeAll(async () => {
  const mocks = agentHostingMocks({
    logs: { "voice-bot": ["Starting container agent", "Agent ready: accepting sessions"] },
    imageDigests: { "registry.example.com/voice-bot:1.4.2": DIGEST },
  });
  await pulumi.runtime.setMocks(mocks, "example", "dev", false);
  program = await import("./index");
});

describe("the voice agent", () => {
  it("runs under its service name, ready, scaled as declared", async () => {
    expect(await valueOf(program.agentName)).toBe("voice-bot");
    expect(await valueOf(program.ready)).toBe(true);
    expect(await valueOf(program.deploymentId)).toMatch(/^dep-[0-9a-f]{12}$/);
    const manifest = await valueOf(program.manifest);
    expect(manifest?.spec).toMatchObject({ image: `registry.example.com/voice-bot@${DIGEST}`, autoScaling: { minReplicas: 1, maxReplicas: 5 }, noiseModels: { enabled: true } });
  });

  it("reads the newest log lines, newest first", async () => {
    const lines = await valueOf(program.newestLogLines);
    expect(lines.map((line) => line.split(" ").slice(1).join(" "))).toEqual(["Agent ready: accepting sessions", "Starting container agent"]);
  });
});
