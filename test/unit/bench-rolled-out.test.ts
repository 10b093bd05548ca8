/**
 * The image bump figure's check (bench/figures/rolling.mjs): after a bump
 * every agent must serve, as its active and desired deployment, a ready
 * deployment of the new image, so a provider that returned before the
 * rollout finished fails the figure.
 */
import { describe, expect, it } from "vitest";
import { checkRolledOut } from "../../bench/figures/rolling.mjs";

const NEW = "registry.example.com/voice-bot:1.0.1";
const OLD = "registry.example.com/voice-bot:1.0.0";

type Agent = { name: string; activeDeploymentId: string; desiredDeploymentId: string; deployments: { id: string; image: string; readyAt: number | null }[] };

function control(agents: Agent[]) {
  return { listAgents: async () => ({ agents }) };
}

const rolled = (name: string): Agent => ({
  name,
  activeDeploymentId: `${name}-2`,
  desiredDeploymentId: `${name}-2`,
  deployments: [
    { id: `${name}-1`, image: OLD, readyAt: 1 },
    { id: `${name}-2`, image: NEW, readyAt: 2 },
  ],
});

describe("checkRolledOut", () => {
  it("accepts agents that each serve a ready deployment of the new image", async () => {
    await expect(checkRolledOut(control([rolled("roll-0"), rolled("roll-1"), rolled("other-0")]), "roll", 2, NEW)).resolves.toBeUndefined();
  });

  it("refuses an agent still serving the old deployment while the new one rolls out", async () => {
    const rolling = { ...rolled("roll-1"), activeDeploymentId: "roll-1-1" };
    await expect(checkRolledOut(control([rolled("roll-0"), rolling]), "roll", 2, NEW)).rejects.toThrow(
      `after the bump to ${NEW}: 2 agents, 1 not serving a ready deployment of it (roll-1)`,
    );
  });

  it("refuses a deployment of another image, one not ready, and a missing agent", async () => {
    const notReady = rolled("roll-0");
    notReady.deployments[1] = { id: "roll-0-2", image: NEW, readyAt: null };
    await expect(checkRolledOut(control([notReady]), "roll", 1, NEW)).rejects.toThrow("1 not serving a ready deployment of it (roll-0)");
    await expect(checkRolledOut(control([rolled("roll-0")]), "roll", 1, OLD)).rejects.toThrow("1 not serving");
    await expect(checkRolledOut(control([rolled("roll-0")]), "roll", 2, NEW)).rejects.toThrow("after the bump to registry.example.com/voice-bot:1.0.1: 1 agents, 0 not serving");
  });
});
