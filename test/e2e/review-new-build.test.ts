/**
 * `agent-hosting-review` on the real CLI's documents of a moved tag: an
 * Agent pinned against the real distribution registry (anonymous) is up;
 * the tag is pushed again; the preview's review says "new build of" the
 * image as written with both short digests, and the drift report of
 * `pulumi preview --refresh --json` (the nightly workflow's document) lists
 * the Agent under the tags moved since deployed, which `--fail-on drift`
 * refuses.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator-fixture";
import { startImageRegistry } from "../support/image-registry-fixture";
import type { RunningImageRegistry } from "../support/image-registry-fixture";
import { runReviewBin } from "../support/review-bin";
import { useStacks } from "./support/e2e-fixture";
import { repoRoot, type StackHandle } from "./support/stack";

const API_KEY = "review-new-build-SECRET-key-2d7e";

const fx = useEmulator({ apiKey: API_KEY, readyAfterMs: 200 });
const makeStack = useStacks();
let registry: RunningImageRegistry;
let stack: StackHandle;

const short = (digest: string): string => digest.slice(0, "sha256:".length + 12);

beforeAll(async () => {
  registry = await startImageRegistry({ auth: "anonymous" });
  stack = makeStack("review-new-build", { baseUrl: fx.emulator.url, apiKey: API_KEY, program: join(repoRoot, "test/e2e/programs/review.cjs") });
}, 300_000);

afterAll(async () => {
  await registry?.close();
});

describe("agent-hosting-review of a tag pushed again", () => {
  it("the preview says new build of the image as written with both short digests; the drift report lists the moved tag", async () => {
    const before = await registry.pushImage("voice-bot", "main");
    const image = `${registry.host}/voice-bot:main`;
    // The agent pins itself: the tests' stacks turn the stack's default off (their images are in no registry).
    const agents = [{ resource: "bot", args: { serviceName: "bot", image, pinImageDigest: true } }];
    const up = await stack.run("up", { params: { agents } });
    expect(up.error, up.engineOutput).toBeUndefined();

    const after = await registry.pushImage("voice-bot", "main");
    expect(after).not.toBe(before);
    const line = `new build of \`${image}\`: \`${short(before)}\` → \`${short(after)}\``;

    const preview = await stack.run("preview-json", { params: { agents } });
    expect(preview.ok, preview.engineOutput).toBe(true);
    const review = await runReviewBin([], JSON.stringify(preview.preview));
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).toContain(`#### \`bot\`: update in place\n- ${line}\n`);

    const refreshed = await stack.run("preview-json", { params: { agents }, previewArgs: ["--refresh"] });
    expect(refreshed.ok, refreshed.engineOutput).toBe(true);
    const drift = await runReviewBin(["drift", "--fail-on", "drift"], JSON.stringify(refreshed.preview));
    expect(drift.code, drift.stderr).toBe(3);
    expect(drift.stdout).toContain(`### Tags moved since deployed\n\n- \`bot\` (agent \`bot\`): ${line}\n`);
    for (const text of [review.stdout, drift.stdout]) expect(text).not.toContain(API_KEY);
  });
});
