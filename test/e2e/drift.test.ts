/**
 * Drift and the comment after `up`, with the bin on what the real CLI
 * printed for a TypeScript program of dynamic Agents: the first preview of
 * the new stack, `pulumi up --json`, a clean `pulumi refresh --preview-only
 * --json`, then drift made at the emulator through the service's API (an
 * image changed, scaling changed, an agent deleted), read by both the
 * refresh preview and `pulumi preview --refresh --json`, and an `up` whose
 * update the service refuses.
 *
 * With AGENT_HOSTING_WRITE_REVIEW_FIXTURES=1 the documents are saved as the
 * unit tests' fixtures (test/unit/fixtures/review/).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runReviewBin, type BinResult } from "../support/review-bin";
import { useEmulator } from "../support/emulator-fixture";
import { useStacks } from "./support/e2e-fixture";
import { repoRoot, type RunOptions, type StackHandle } from "./support/stack";

const API_KEY = "drift-SECRET-key-90c1";
const fixtureDir = join(repoRoot, "test/unit/fixtures/review");
const MARKER = "<!-- agent-hosting-drift project=agent-hosting-e2e stack=dev -->";
const REVIEW_MARKER = "<!-- agent-hosting-review project=agent-hosting-e2e stack=dev -->";

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 200 });
const makeStack = useStacks();
let stack: StackHandle;

// bot-b depends on bot-a, so in the up whose bot-b update the service refuses, bot-a's update has finished before bot-b's starts (without it, bot-b may fail first and the engine starts no more steps).
const agents = ["bot-a", "bot-b", "bot-c"].map((name) => ({
  resource: name,
  args: { serviceName: name, image: "registry.example.com/bot:1", autoScaling: { minAgents: 1, maxAgents: 2 } },
  after: name === "bot-b" ? ["bot-a"] : [],
}));

function save(name: string, text: string): void {
  if (process.env["AGENT_HOSTING_WRITE_REVIEW_FIXTURES"] === "1") writeFileSync(join(fixtureDir, name), text.endsWith("\n") ? text : `${text}\n`);
}

async function document(op: "preview-json" | "refresh-json", options: RunOptions = {}): Promise<string> {
  const result = await stack.run(op, { params: { agents }, ...options });
  expect(result.error, result.engineOutput).toBeUndefined();
  const text = JSON.stringify(result.preview, null, 2);
  expect(text).not.toContain(API_KEY);
  return text;
}

async function upJson(options: RunOptions = {}): Promise<{ ok: boolean; text: string; error: string | undefined }> {
  const result = await stack.run("up-json", { params: { agents }, ...options });
  expect(result.upJson).toBeDefined();
  expect(result.upJson).not.toContain(API_KEY);
  return { ok: result.ok, text: result.upJson ?? "", error: result.error };
}

beforeAll(() => {
  stack = makeStack("drift", { baseUrl: fx.emulator.url, apiKey: API_KEY, program: join(repoRoot, "test/e2e/programs/review.cjs") });
});

/**
 * The drift `document` reports, saved as the fixture `fixture` and read by
 * the bin with `args`: --fail-on drift exits 3 and names the deleted agent.
 */
async function driftReport(fixture: string, document: string, args: readonly string[]): Promise<BinResult> {
  save(fixture, document);
  const report = await runReviewBin(args, document);
  expect(report.code).toBe(3);
  expect(report.stdout).toContain("> **Deleted outside Pulumi:** `bot-c` (agent `bot-c`).");
  return report;
}

describe("drift and the comment after up, on what the real CLI printed", () => {
  let previewComment = "";

  it("the first preview's comment, then `pulumi up --json`: the same comment says what was applied, with each new deployment id", async () => {
    const preview = await runReviewBin([], await document("preview-json"));
    expect(preview.code).toBe(0);
    expect(preview.stdout.split("\n")[0]).toBe(REVIEW_MARKER);
    previewComment = preview.stdout;

    const up = await upJson();
    expect(up.ok, up.error).toBe(true);
    save("up-create.txt", up.text);
    const applied = await runReviewBin(["up"], up.text);
    expect(applied.code, applied.stderr).toBe(0);
    const live = (await fx.control.listAgents()).agents;
    expect(live.map((a) => a.name).sort()).toEqual(["bot-a", "bot-b", "bot-c"]);
    expect(applied.stdout.split("\n")[0]).toBe(REVIEW_MARKER);
    expect(applied.stdout).toContain("## Agent Hosting update applied: stack `dev`");
    for (const agent of live) expect(applied.stdout).toContain(`| \`${agent.name}\` | created | \`${agent.activeDeploymentId}\` |`);
  });

  it("a clean stack: no drift, exit 0 under --fail-on drift; --skip-no-changes prints only the marker, for drift and for a preview", async () => {
    const unchanged = await runReviewBin(["--skip-no-changes", "--fail-on", "replace,delete"], await document("preview-json"));
    expect(unchanged).toEqual({ code: 0, stdout: `${REVIEW_MARKER}\n`, stderr: "" });
    const text = await document("refresh-json");
    save("drift-clean.json", text);
    const report = await runReviewBin(["drift", "--fail-on", "drift"], text);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain(`${MARKER}\n## Agent Hosting drift: stack \`dev\`\n\nProject \`agent-hosting-e2e\`: no drift.`);
    const skipped = await runReviewBin(["--drift", "--skip-no-changes"], text);
    expect(skipped).toEqual({ code: 0, stdout: `${MARKER}\n`, stderr: "" });
  });

  it("drift made at the service (an image changed, scaling changed, an agent deleted): both documents report it, --fail-on drift exits 3", async () => {
    const spec = async (name: string) => (await fx.client.getAgent(name)).deployment?.manifest?.["spec"] as Record<string, unknown>;
    await fx.client.updateAgent("bot-a", { image: "registry.example.com/bot:9", autoScaling: { minAgents: 1, maxAgents: 2 } });
    await fx.client.updateAgent("bot-b", { image: "registry.example.com/bot:1", autoScaling: { minAgents: 2, maxAgents: 6 } });
    await fx.client.deleteAgent("bot-c");
    expect(await spec("bot-a")).toMatchObject({ image: "registry.example.com/bot:9" });

    // The refresh preview: the deleted agent by name; the dynamic provider's changes only counted (its host reports no per-field diff).
    const refresh = await driftReport("drift-refresh-dynamic.json", await document("refresh-json"), ["drift", "--fail-on", "drift"]);
    expect(refresh.stderr).toBe("agent-hosting-review: --fail-on drift: stack dev drifted\n");
    expect(refresh.stdout).toContain("**2** resource(s) changed outside Pulumi that `pulumi refresh --preview-only --json` does not name");
    expect(refresh.stdout).toContain("(refreshed: `bot-a`, `bot-b`)");

    // The preview with --refresh: every field, the program's value against the service's.
    const drift = await driftReport("drift-preview-refresh.json", await document("preview-json", { refresh: true }), ["--drift", "--fail-on", "drift"]);
    expect(drift.stdout).toContain("Project `agent-hosting-e2e`: **2** changed outside Pulumi · **1** deleted outside Pulumi");
    expect(drift.stdout).toContain("#### `bot-a`\n\n| field | in the program | at the service |\n|---|---|---|\n| `image` | `registry.example.com/bot:1` | `registry.example.com/bot:9` |\n");
    expect(drift.stdout).toContain('#### `bot-b`\n\n| field | in the program | at the service |\n|---|---|---|\n| `autoScaling` | `{"maxAgents":2,"minAgents":1}` | `{"maxAgents":6,"minAgents":2}` |\n');
    expect(drift.stdout).not.toContain("__provider");
    expect(drift.stdout).not.toContain(API_KEY);
  });

  it("an up that puts it back, with the service refusing one update: the comment names the failure and the applied deployments", async () => {
    await fx.control.injectFault({ method: "POST", path: "/v1/agents/bot-b", kind: "status", status: 400, code: "GENERIC_BAD_REQUEST" });
    // `pulumi up --refresh`: the refresh reads the drift, the update puts back what the program declares.
    const up = await upJson({ refresh: true });
    expect(up.ok).toBe(false);
    save("up-failed.txt", up.text);
    const previous = join(stack.workDir, "previous-comment.md");
    writeFileSync(previous, previewComment);
    const applied = await runReviewBin(["up", "-", "--previous", previous], up.text);
    expect(applied.code, applied.stderr).toBe(0);
    const live = new Map((await fx.control.listAgents()).agents.map((a) => [a.name, a.activeDeploymentId]));
    expect(applied.stdout).toContain("## Agent Hosting update failed: stack `dev`");
    expect(applied.stdout).toContain("> **Failed:** `bot-b` (update). The engine's error:");
    expect(applied.stdout).toMatch(/\| `bot-a` \| updated \| `dep-[0-9a-f]+` → `dep-[0-9a-f]+` \|/);
    expect(applied.stdout).toContain(`→ \`${live.get("bot-a")}\` |`);
    expect(applied.stdout).toContain(`| \`bot-c\` | created | \`${live.get("bot-c")}\` |`);
    // The preview's comment stays below, folded, without its own marker line.
    expect(applied.stdout).toContain("<details><summary>The preview reviewed in this pull request</summary>\n\n## Agent Hosting preview: stack `dev`");
    expect(applied.stdout.match(/<!-- agent-hosting-review/g)).toHaveLength(1);
    expect(applied.stdout).not.toContain(API_KEY);
  });
});
