/**
 * A new stack previewed before anything exists, as a pipeline's first
 * `pulumi preview` and `pulumi up` do: functions whose arguments come from an
 * agent being created (getAgentLogsOutput({ agentName: bot.name }),
 * getSecretSetOutput({ name: bot.secretSet })) follow Pulumi's rule for
 * output invokes. Their results are unknown in that preview and nothing is
 * requested for them; once the agent exists they run, in previews too.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator-fixture";
import { e2eStack } from "./support/stack";
import { succeeded } from "./support/succeeded";

const API_KEY = "e2e-SECRET-first-preview-51c2";
const BOT_URN = "urn:pulumi:dev::agent-hosting-e2e::pulumi-nodejs:dynamic/agent-hosting:Agent::bot";

const params = {
  agents: [{ resource: "bot", args: { serviceName: "first-bot", image: "registry.example.com/bot:1", secretSet: "voice-secrets" } }],
  readsOf: [{ resource: "reads", of: "bot" }],
};

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 300, secretSets: { "voice-secrets": ["TOKEN"] } });

/** The requests the emulator received for logs and secret sets since the last reset of its log. */
async function reads(): Promise<string[]> {
  const { requests } = await fx.control.requests();
  return requests.filter((r) => r.method === "GET" && (/\/logs$/.test(r.path) || r.path.startsWith("/v1/secrets/"))).map((r) => r.path).sort();
}

describe("the first preview of a new stack", () => {
  it("shows the reads of an agent being created as unknown and sends nothing for them; up, the next preview and destroy run them", async () => {
    const stack = e2eStack("first-preview", { baseUrl: fx.emulator.url, apiKey: API_KEY });
    const texts: string[] = [];
    try {
      const preview = await stack.run("preview", { params });
      texts.push(preview.engineOutput, preview.error ?? "");
      expect(preview.error).toBeUndefined();
      expect(preview.changeSummary).toEqual({ create: 2 });
      expect(preview.engineOutput).toMatch(/reads: \{\n\s+logCount\s+: \[unknown\]\n\s+secretFields: \[unknown\]\n\s+\}/);
      // One read: the Agent's check of the set it names (design.md section 4); the functions send nothing.
      expect(await reads()).toEqual(["/v1/secrets/voice-secrets"]);
      expect((await fx.control.listAgents()).agents).toEqual([]);

      const up = await stack.run("up", { params });
      texts.push(up.engineOutput, up.error ?? "");
      expect(up.error).toBeUndefined();
      expect(up.changeSummary).toEqual({ create: 2 });
      // Its own preview and its update both saw the agent's create (the comparison has something to compare).
      expect(up.agentOperations).toEqual({ preview: { [BOT_URN]: ["create"] }, update: { [BOT_URN]: ["create"] } });
      // getAgentLogs' limit 5 of the agent's five lines (its ready deployment's, test/support/emulator-log-lines.ts).
      expect(up.outputs["reads"]).toEqual({ logCount: 5, secretFields: ["TOKEN"] });
      // The readiness wait also reads the newest log line for its progress notes.
      const afterUp = await reads();
      expect(afterUp).toContain("/v1/agents/first-bot/logs");

      const again = await stack.run("preview", { params });
      texts.push(again.engineOutput, again.error ?? "");
      expect(again.changeSummary).toEqual({ same: 2 });
      // The functions run in this preview (one logs read, one set read), and the Agent's check reads the set once more.
      expect(await reads()).toEqual([...afterUp, "/v1/agents/first-bot/logs", "/v1/secrets/voice-secrets", "/v1/secrets/voice-secrets"].sort());

      const destroy = await stack.run("destroy");
      texts.push(destroy.engineOutput, destroy.error ?? "");
      succeeded(destroy);
      expect((await fx.control.listAgents()).agents).toEqual([]);
      expect(texts.join("\n")).not.toContain(API_KEY);
    } finally {
      stack.remove();
    }
  });
});
