/**
 * Drift of native Agents, as a Pulumi YAML program's pipeline sees it: the
 * CLI run in the program's directory with the installed plugin, `pulumi up`,
 * a clean `pulumi refresh --preview-only --json`, then drift made at the
 * emulator through the service's API (an image changed, scaling changed, an
 * agent deleted) and the refresh preview read by `agent-hosting-review
 * drift`. The native plugin returns a per-field diff, so the refresh preview
 * names every field. Nothing of the state changes: the refresh is a preview.
 *
 * With AGENT_HOSTING_WRITE_REVIEW_FIXTURES=1 the drift document is saved as a
 * unit tests' fixture (test/unit/fixtures/review/drift-refresh-native.json).
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stackDir, type StackDir } from "../languages/support/stack-env";
import { runReviewBin } from "../support/review-bin";
import { useEmulator } from "../support/emulator-fixture";
import { initStackWithConfig, pulumiCommands } from "./support/pulumi-command";
import { repoRoot } from "./support/stack";
import { yamlProgramEnv } from "./support/yaml-language";

const API_KEY = "native-drift-SECRET-key-71aa";
const MARKER = "<!-- agent-hosting-drift project=drift-yaml stack=dev -->";

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 100 });
let program: StackDir;
let env: NodeJS.ProcessEnv;
const cli = pulumiCommands(() => ({ cwd: program.workDir, env }));
const { ok } = cli;

const PROGRAM = `name: drift-yaml
runtime: yaml
resources:
${["bot-a", "bot-b", "bot-c"]
  .map((name) => `  ${name}:\n    type: agent-hosting:index:Agent\n    properties:\n      serviceName: ${name}\n      image: registry.example.com/bot:1\n      autoScaling: { minAgents: 1, maxAgents: 2 }\n`)
  .join("")}`;

/** `pulumi refresh --preview-only --json`: stdout only (the CLI's warnings go to stderr). */
function refreshPreview(): Promise<string> {
  return new Promise((resolve, reject) => {
    const { PULUMI_SKIP_CONFIRMATIONS: _yes, ...rest } = env;
    execFile("pulumi", ["refresh", "--preview-only", "--json"], { cwd: program.workDir, env: rest, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

beforeAll(() => {
  program = stackDir("drift-native");
  writeFileSync(join(program.workDir, "Pulumi.yaml"), PROGRAM);
  env = yamlProgramEnv(program.env);
});

afterAll(() => program?.remove());

describe("drift of a YAML program's native Agents, pulumi refresh --preview-only --json", () => {
  it("a clean stack, then an image changed, scaling changed and an agent deleted at the service: every field named", async () => {
    await initStackWithConfig(cli, fx.emulator);
    await ok("preview");
    await ok("up", "--yes");

    const clean = await runReviewBin(["drift", "--fail-on", "drift"], await refreshPreview());
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain(`${MARKER}\n## Agent Hosting drift: stack \`dev\`\n\nProject \`drift-yaml\`: no drift.`);

    await fx.client.updateAgent("bot-a", { image: "registry.example.com/bot:9", autoScaling: { minAgents: 1, maxAgents: 2 } });
    await fx.client.updateAgent("bot-b", { image: "registry.example.com/bot:1", autoScaling: { minAgents: 3, maxAgents: 3 } });
    await fx.client.deleteAgent("bot-c");
    const text = await refreshPreview();
    expect(text).not.toContain(API_KEY);
    if (process.env["AGENT_HOSTING_WRITE_REVIEW_FIXTURES"] === "1") writeFileSync(join(repoRoot, "test/unit/fixtures/review/drift-refresh-native.json"), text);
    const drift = await runReviewBin(["drift", "-", "--fail-on", "drift"], text);
    expect(drift.code).toBe(3);
    expect(drift.stdout).toContain("Project `drift-yaml`: **2** changed outside Pulumi · **1** deleted outside Pulumi");
    expect(drift.stdout).toContain("> **Deleted outside Pulumi:** `bot-c` (agent `bot-c`).");
    expect(drift.stdout).toContain(
      "#### `bot-a` _(native provider)_\n\n| field | in the stack | at the service |\n|---|---|---|\n| `image` | `registry.example.com/bot:1` | `registry.example.com/bot:9` |\n",
    );
    expect(drift.stdout).toContain('| `autoScaling` | `{"maxAgents":2,"minAgents":1}` | `{"maxAgents":3,"minAgents":3}` |');
    expect(drift.stdout).not.toContain("does not name");
    expect(drift.stdout).not.toContain(API_KEY);

    // The refresh was a preview: the state still holds the declared spec, so the next plain preview shows no change.
    await ok("preview", "--expect-no-changes");
  });
});
