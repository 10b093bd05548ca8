/**
 * `agent-hosting-review` on previews the real CLI produced: `pulumi preview
 * --json` of a program of Agents against the emulator, for a create, an
 * update in place, a replace, a delete, an input marked secret, and a
 * preview that fails; and `pulumi preview --refresh --json` of agents with
 * live sessions (set at the emulator), on a service that rolls updates (the
 * default) and on one that switches at once. The bin runs as a pipeline runs
 * it, with the document on stdin or in a file.
 *
 * With AGENT_HOSTING_WRITE_REVIEW_FIXTURES=1 the documents are saved as the
 * unit tests' fixtures (test/unit/fixtures/review/).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReviewBin, type BinResult } from "../support/review-bin";
import { useEmulator } from "../support/emulator-fixture";
import { useStacks } from "./support/e2e-fixture";
import { repoRoot, type OpResult, type StackHandle } from "./support/stack";

const API_KEY = "review-SECRET-key-4b1e";
const PRIVATE_IMAGE_1 = "registry.example.com/private-bot:token-9f2c1";
const PRIVATE_IMAGE_2 = "registry.example.com/private-bot:token-77ad0";
const fixtureDir = join(repoRoot, "test/unit/fixtures/review");

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 200, secretSets: { "voice-secrets": ["TOKEN"] } });
const makeStack = useStacks();
let stack: StackHandle;
let scratch: string;
/** The replace's `pulumi preview --json` (the replace case's), which the replacement-steps case compares with. */
let replaceText: string | undefined;

interface AgentSpec {
  resource: string;
  args: Record<string, unknown>;
  secret?: string[];
}

const botA = (args: Record<string, unknown> = {}): AgentSpec => ({
  resource: "bot-a",
  args: { serviceName: "bot-a", image: "registry.example.com/bot:1", ...args },
});
/** bot-a after the update: a new image, scaling, a secret set, noise and a provider setting. */
const UPDATED_A = {
  image: "registry.example.com/bot:2",
  autoScaling: { minAgents: 1, maxAgents: 3 },
  secretSet: "voice-secrets",
  enableNoise: true,
  readyTimeoutSeconds: 120,
};
const botC = (image: string): AgentSpec => ({
  resource: "bot-c",
  args: { serviceName: "bot-c", image, secretSet: "voice-secrets" },
  secret: ["image"],
});

async function preview(name: string, agents: AgentSpec[], previewArgs: string[] = [], fails = false): Promise<string> {
  const result: OpResult = await stack.run("preview-json", { params: { agents }, previewArgs });
  expect(result.ok).toBe(!fails);
  expect(result.preview).toBeDefined();
  const text = JSON.stringify(result.preview, null, 2);
  expect(text).not.toContain(API_KEY);
  if (process.env["AGENT_HOSTING_WRITE_REVIEW_FIXTURES"] === "1") writeFileSync(join(fixtureDir, `${name}.json`), `${text}\n`);
  return text;
}

/** The inputs of bot-c as the CLI printed them: it masks the secret image as "[secret]". */
function botCInputs(text: string): Record<string, unknown> | undefined {
  const steps = (JSON.parse(text) as { steps: { urn: string; newState?: { inputs?: Record<string, unknown> }; oldState?: { inputs?: Record<string, unknown> } }[] }).steps;
  const step = steps.find((s) => s.urn.endsWith("::bot-c"));
  return step?.newState?.inputs ?? step?.oldState?.inputs;
}

async function up(agents: AgentSpec[]): Promise<void> {
  const result = await stack.run("up", { params: { agents } });
  expect(result.error).toBeUndefined();
  expect(result.previewChangeSummary, "the up's own preview").toBeDefined();
}

/** `pulumi preview --json` of `agents` with `previewArgs` (not saved as a fixture). */
async function sessionsPreview(agents: AgentSpec[], previewArgs: string[] = []): Promise<string> {
  const result = await stack.run("preview-json", { params: { agents }, previewArgs });
  expect(result.ok, result.engineOutput).toBe(true);
  return JSON.stringify(result.preview);
}

/** Nothing of the serialized provider, the key or a secret reaches the comment. */
function expectClean(markdown: string): void {
  expect(markdown).not.toContain("__provider");
  expect(markdown).not.toContain("exports.handler");
  expect(markdown).not.toContain(API_KEY);
  expect(markdown).not.toContain(PRIVATE_IMAGE_1);
  expect(markdown).not.toContain(PRIVATE_IMAGE_2);
}

beforeAll(() => {
  stack = makeStack("review", { baseUrl: fx.emulator.url, apiKey: API_KEY, program: join(repoRoot, "test/e2e/programs/review.cjs") });
  scratch = mkdtempSync(join(tmpdir(), "review-e2e-"));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The bin's review with `args` (of `stdin`, where given): it exits with `code`, and its Markdown is clean (expectClean). */
async function cleanReview(args: readonly string[], stdin: string | undefined, code: number): Promise<BinResult> {
  const result = await runReviewBin(args, stdin);
  expect(result.code, result.stderr).toBe(code);
  expectClean(result.stdout);
  return result;
}

/** Each piece appears in the review's Markdown (one expectation per piece, so a failure names it). */
function expectContains(markdown: string, pieces: readonly string[]): void {
  for (const piece of pieces) expect(markdown).toContain(piece);
}

describe("agent-hosting-review on previews of the real CLI", () => {
  it("a create: every Agent with its inputs; the secret image masked; exit 0 even with --fail-on replace,delete", async () => {
    const text = await preview("create", [botA(), botC(PRIVATE_IMAGE_1)]);
    expect(botCInputs(text)?.["image"]).toBe("[secret]");
    const review = await cleanReview(["--fail-on", "replace,delete"], text, 0);
    expect(review.stderr).toBe("");
    expectContains(review.stdout, [
      "## Agent Hosting preview: stack `dev`",
      "**3** to create",
      "#### `bot-a`: create",
      "- `image`: `registry.example.com/bot:1`",
      "#### `bot-c`: create",
      "- `image`: `[secret]`",
      "- `secretSet`: `voice-secrets`",
    ]);
    expect(review.stdout).not.toContain("[!WARNING]");
    await up([botA(), botC(PRIVATE_IMAGE_1)]);
  });

  it("an update in place: image, scaling, secret set, noise and a setting before → after; a changed secret input stays masked", async () => {
    const changed = botA(UPDATED_A);
    const text = await preview("update", [changed, botC(PRIVATE_IMAGE_2)]);
    expect(botCInputs(text)?.["image"]).toBe("[secret]");
    const file = join(scratch, "update.json");
    writeFileSync(file, text);
    const review = await cleanReview([file, "--fail-on", "replace,delete"], undefined, 0);
    expectContains(review.stdout, [
      "**2** to update",
      "#### `bot-a`: update in place",
      "- `image`: `registry.example.com/bot:1` → `registry.example.com/bot:2`",
      '- `autoScaling`: _not set_ → `{"maxAgents":3,"minAgents":1}`',
      "- `secretSet`: _not set_ → `voice-secrets`",
      "- `enableNoise`: `false` → `true`",
      "- `readyTimeoutSeconds`: `600` → `120`",
    ]);
    expect(review.stdout).not.toContain("`serviceName`:");
    expectContains(review.stdout, [
      "#### `bot-c`: update in place",
      "- `image`: `[secret]` → `[secret]`",
    ]);
    // The same document from stdin gives the same summary.
    expect((await runReviewBin(["-"], text)).stdout).toBe(review.stdout);
    await up([changed, botC(PRIVATE_IMAGE_2)]);
  });

  it("a replace: a warning naming the old and new serviceName; --fail-on replace,delete exits 3 after the summary", async () => {
    const renamed = botA({ serviceName: "bot-a-v2", ...UPDATED_A });
    const text = await preview("replace", [renamed, botC(PRIVATE_IMAGE_2)]);
    replaceText = text;
    const review = await cleanReview(["--fail-on", "replace,delete"], text, 3);
    expectContains(review.stdout, [
      "#### `bot-a`: replace",
      "> **Replace** of `bot-a` (forced by `serviceName`): `serviceName` `bot-a` → `bot-a-v2`.",
      "> The old agent `bot-a` is deleted",
      "- `serviceName`: `bot-a` → `bot-a-v2`",
      "**Approval required:** `bot-a` (replace)",
    ]);
    expect(review.stderr).toContain("--fail-on replace,delete: bot-a (replace)");
    // Without --fail-on, or failing only on deletes, the same preview passes.
    expect((await runReviewBin([], text)).code).toBe(0);
    expect((await runReviewBin(["--fail-on", "delete"], text)).code).toBe(0);
  });

  it("the same replace previewed with --show-replacement-steps --show-sames: one replace, and the unchanged Agent listed", async () => {
    const renamed = botA({ serviceName: "bot-a-v2", ...UPDATED_A });
    // The replace case's document, from the same state (previewed here when that case did not run).
    const plain = await runReviewBin([], replaceText ?? (await preview("replace", [renamed, botC(PRIVATE_IMAGE_2)])));
    const text = await preview("replace-steps", [renamed, botC(PRIVATE_IMAGE_2)], ["--show-replacement-steps", "--show-sames"]);
    const steps = (JSON.parse(text) as { steps: { op: string; urn: string }[] }).steps.filter((s) => s.urn.endsWith("::bot-a")).map((s) => s.op);
    expect(steps).toEqual(expect.arrayContaining(["create-replacement", "replace", "delete-replaced"]));
    const review = await cleanReview(["--fail-on", "replace"], text, 3);
    const section = (markdown: string) => markdown.slice(markdown.indexOf("> [!WARNING]"), markdown.indexOf("\n\n", markdown.indexOf("#### `bot-a`")));
    expect(section(review.stdout)).toBe(section(plain.stdout));
    expect(review.stdout).toContain("Same (no change): `bot-c`");
  });

  it("a delete: a warning naming the agent deleted; --fail-on delete exits 3", async () => {
    const text = await preview("delete", [botA(UPDATED_A)]);
    const review = await cleanReview(["--fail-on", "delete"], text, 3);
    expectContains(review.stdout, [
      "**1** to delete",
      "> **Delete** of `bot-c`: the agent `bot-c` is deleted",
      "#### `bot-c`: delete",
      "- `image`: `[secret]`",
    ]);
    expect((await runReviewBin(["--fail-on", "replace"], text)).code).toBe(0);
  });

  it("a preview that fails still prints its document: the review shows the engine's error, and the secret value is in neither", async () => {
    const untagged = "registry.example.com/private-bot-token-3e8d";
    const text = await preview("failed", [botA(), botC(untagged)], [], true);
    // check names a failing secret input in its reason, so the engine has no value to print beside it.
    expect(text).not.toContain(untagged);
    const review = await cleanReview(["--fail-on", "replace,delete"], text, 0);
    expect(review.stdout).not.toContain(untagged);
    expectContains(review.stdout, [
      "### Preview errors",
      "resource 'bot-c' has a problem: image (a secret): must carry a tag",
    ]);
  });

  it("live sessions set at the service: `pulumi preview --refresh` reads them, a delete is marked with the count and --fail-on live-sessions exits 3; an image update on this rolling service is not marked", async () => {
    await fx.control.setSessions("bot-c", 2);
    await fx.control.setSessions("bot-a", 2);
    const program = [botA({ ...UPDATED_A, image: "registry.example.com/bot:3" })];
    const text = await sessionsPreview(program, ["--refresh"]);
    const review = await cleanReview(["--fail-on", "live-sessions"], text, 3);
    expectContains(review.stdout, [
      [
        "> [!CAUTION]",
        "> **Delete** of `bot-c`: the agent `bot-c` is deleted, with its deployments and sessions.",
        "> **2 live sessions** (as of this preview's refresh) will be cut: `drainSeconds` is 0, so the delete does not wait for them to end.",
        "> To let them end, set `drainSeconds` and run `pulumi up` before this change: a delete waits what the state records.",
      ].join("\n"),
      "#### `bot-c`: delete (2 live sessions)",
      "**Approval required:** `bot-c` (delete, 2 live sessions); `--fail-on live-sessions` refuses it.",
      // The service rolls updates (the outputs carry desiredDeploymentId): the old deployment keeps serving bot-a's sessions.
      "#### `bot-a`: update in place\n- `image`: `registry.example.com/bot:2` → `registry.example.com/bot:3`",
    ]);
    expect(review.stdout).not.toContain("**Update** of `bot-a`");
    expect(review.stderr).toBe("agent-hosting-review: --fail-on live-sessions: bot-c (delete, 2 live sessions)\n");
    // Without --refresh, the preview holds the outputs of the last `pulumi up`, which counted no session.
    const stale = await runReviewBin(["--fail-on", "live-sessions"], await sessionsPreview(program));
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stdout).toContain("> **Delete** of `bot-c`: the agent `bot-c` is deleted, with its deployments and sessions.\n\n");
    expect(stale.stdout).not.toContain("live session");
  });
});

describe("agent-hosting-review on a service that switches to a new deployment at once (the emulator's immediate rollout)", () => {
  const immediate = useEmulator({ apiKey: API_KEY, readyAfterMs: 200, rollout: "immediate" });
  let bots: StackHandle;

  beforeAll(() => {
    bots = makeStack("review-immediate", { baseUrl: immediate.emulator.url, apiKey: API_KEY, program: join(repoRoot, "test/e2e/programs/review.cjs") });
  });

  it("an image update of an agent with live sessions cuts them: the review says so and --fail-on live-sessions exits 3", async () => {
    expect((await bots.run("up", { params: { agents: [botA()] } })).error).toBeUndefined();
    await immediate.control.setSessions("bot-a", 2);
    const result = await bots.run("preview-json", { params: { agents: [botA({ image: "registry.example.com/bot:2" })] }, previewArgs: ["--refresh"] });
    expect(result.ok, result.engineOutput).toBe(true);
    const review = await cleanReview(["--fail-on", "live-sessions"], JSON.stringify(result.preview), 3);
    expectContains(review.stdout, [
      [
        "> [!WARNING]",
        "> **Update** of `bot-a`: **2 live sessions** (as of this preview's refresh) will be cut: this update makes a new deployment, " +
          "and this service switches to it at once (the agent's outputs carry no `desiredDeploymentId`, which a service that rolls updates sends).",
      ].join("\n"),
      "#### `bot-a`: update in place (2 live sessions)\n- `image`: `registry.example.com/bot:1` → `registry.example.com/bot:2`",
      "**Approval required:** `bot-a` (update, 2 live sessions); `--fail-on live-sessions` refuses it.",
    ]);
    expect(review.stderr).toBe("agent-hosting-review: --fail-on live-sessions: bot-a (update, 2 live sessions)\n");
  });
});
