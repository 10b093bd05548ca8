/**
 * A moved tag in the review and the drift report: the previews the real CLI
 * printed (test/unit/fixtures/review/), rewritten as a preview of a pinned
 * Agent prints them: the digest the state recorded in the old state's
 * outputs and checked inputs, the digest the tag names now in the new
 * state's checked inputs, the image as written unchanged.
 */
import { describe, expect, it } from "vitest";
import { shortDigest } from "../../src/review/new-build";
import { reviewDrift, reviewPreview } from "../../src/review/review";
import { fixtureText } from "./support/review-fixtures";
import type { FixtureName } from "./support/review-fixtures";

const OLD = `sha256:${"a1".repeat(32)}`;
const NEW = `sha256:${"b2".repeat(32)}`;
const IMAGE = "registry.example.com/voice-bot:main";

type Json = Record<string, unknown>;
interface Step extends Json {
  op: string;
  urn: string;
  oldState?: { inputs?: Json; outputs?: Json };
  newState?: { inputs?: Json; outputs?: Json };
}

function stepsOf(document: { steps: Step[] }, resource: string): Step[] {
  return document.steps.filter((step) => step.urn.endsWith(`::${resource}`));
}

/**
 * `resource`'s steps in fixture `name` with the image `IMAGE` on every side,
 * the recorded digest `recorded` on each old state (and on a refresh's new
 * state, which reads what runs), and `planned` in the planned step's new inputs.
 */
function pinned(name: FixtureName, resource: string, recorded: string | undefined, planned: string | undefined): string {
  const document = JSON.parse(fixtureText(name)) as { steps: Step[] };
  for (const step of stepsOf(document, resource)) {
    const read = step.op === "refresh" ? [step.oldState, step.newState] : [step.oldState];
    for (const state of read) {
      if (!state?.inputs) continue;
      state.inputs["image"] = IMAGE;
      if (state.outputs) state.outputs["image"] = IMAGE;
      if (recorded !== undefined) {
        state.inputs["imageDigest"] = recorded;
        if (state.outputs) state.outputs["imageDigest"] = recorded;
      }
    }
    if (step.op !== "refresh" && step.newState?.inputs) {
      step.newState.inputs["image"] = IMAGE;
      if (planned !== undefined) step.newState.inputs["imageDigest"] = planned;
    }
  }
  return JSON.stringify(document);
}

describe("the review of an update whose tag names a new build", () => {
  it("says new build of the image as written, with both short digests, and no imageDigest line", () => {
    const { summary, agents } = reviewPreview(pinned("update", "bot-a", OLD, NEW));
    const botA = agents.find((agent) => agent.resource === "bot-a");
    expect(botA?.newBuild).toEqual({ image: { kind: "value", value: IMAGE }, before: OLD, after: NEW });
    const section = summary.slice(summary.indexOf("#### `bot-a`"), summary.indexOf("#### `bot-c`"));
    expect(section.split("\n").slice(0, 2)).toEqual([
      "#### `bot-a`: update in place",
      `- new build of \`${IMAGE}\`: \`sha256:${"a1".repeat(6)}\` → \`sha256:${"b2".repeat(6)}\``,
    ]);
    expect(summary).not.toContain("`imageDigest`");
    expect(section).not.toContain(`- \`image\`:`);
  });

  it("is no new build when the digest did not move, was never recorded (a state from before pinning), or the image itself changes", () => {
    const unmoved = reviewPreview(pinned("update", "bot-a", OLD, OLD));
    expect(unmoved.agents.find((a) => a.resource === "bot-a")?.newBuild).toBeUndefined();
    expect(unmoved.summary).not.toContain("new build");

    const unrecorded = reviewPreview(pinned("update", "bot-a", undefined, NEW));
    expect(unrecorded.agents.find((a) => a.resource === "bot-a")?.newBuild).toBeUndefined();
    expect(unrecorded.summary).not.toContain("new build");

    const document = JSON.parse(pinned("update", "bot-a", OLD, NEW)) as { steps: Step[] };
    const update = stepsOf(document, "bot-a").find((s) => s.op === "update");
    if (update?.newState?.inputs) update.newState.inputs["image"] = "registry.example.com/voice-bot:v2";
    const retagged = reviewPreview(JSON.stringify(document));
    expect(retagged.summary).not.toContain("new build");
    expect(retagged.summary).toContain(`- \`image\`: \`${IMAGE}\` → \`registry.example.com/voice-bot:v2\``);
  });

  it("a secret image, whose digest is secret too: no new-build line, imageDigest masked among the changes the diff names", () => {
    const document = JSON.parse(pinned("update", "bot-a", OLD, NEW)) as { steps: Step[] };
    for (const step of stepsOf(document, "bot-a")) {
      for (const state of [step.oldState, step.newState]) {
        if (state?.inputs) Object.assign(state.inputs, { image: "[secret]", imageDigest: "[secret]" });
        if (state?.outputs) Object.assign(state.outputs, { image: "[secret]", imageDigest: "[secret]" });
      }
      if (step.op === "update") step["detailedDiff"] = { imageDigest: { kind: "update", inputDiff: false } };
    }
    const { summary, agents } = reviewPreview(JSON.stringify(document));
    expect(agents.find((a) => a.resource === "bot-a")?.newBuild).toBeUndefined();
    expect(summary).not.toContain("new build");
    expect(summary).toContain("- `imageDigest`: `[secret]` → `[secret]`\n");
    expect(summary).not.toContain(IMAGE);
  });

  it("cuts a digest to its first 12 hex characters", () => {
    expect(shortDigest(NEW)).toBe("sha256:b2b2b2b2b2b2");
  });
});

describe("the drift report of a preview with --refresh whose tag moved since the up", () => {
  it("lists the Agent under the tags moved since deployed, beside its other drift, and counts it as drift", () => {
    const { report, markdown, drifted } = reviewDrift(pinned("drift-preview-refresh", "bot-b", OLD, NEW));
    expect(report.movedTags).toEqual([
      { resource: "bot-b", serviceName: { kind: "value", value: "bot-b" }, build: { image: { kind: "value", value: IMAGE }, before: OLD, after: NEW } },
    ]);
    expect(report.drifted.map((a) => [a.resource, a.kind, a.fields.map((f) => f.name)])).toEqual([
      ["bot-c", "deleted", []],
      ["bot-a", "changed", ["image"]],
      ["bot-b", "changed", ["autoScaling"]],
    ]);
    expect(drifted).toBe(true);
    expect(markdown).toContain("**1** with a new build behind the tag");
    expect(markdown).toContain(
      `### Tags moved since deployed\n\n- \`bot-b\` (agent \`bot-b\`): new build of \`${IMAGE}\`: \`sha256:${"a1".repeat(6)}\` → \`sha256:${"b2".repeat(6)}\``,
    );
  });

  it("a moved tag alone is drift; the same digest is none", () => {
    const onlyBotB = (text: string): string => {
      const document = JSON.parse(text) as { steps: Step[]; changeSummary: Json };
      document.steps = document.steps.filter((s) => s.urn.endsWith("::bot-b") || !s.urn.includes("Agent::"));
      const update = document.steps.find((s) => s.op === "update");
      // The service's scaling as the program declares it: the tag is all that differs.
      if (update?.oldState?.inputs && update.newState?.inputs) update.oldState.inputs["autoScaling"] = update.newState.inputs["autoScaling"];
      document.changeSummary = { same: 1, update: 1 };
      return JSON.stringify(document);
    };
    const moved = reviewDrift(onlyBotB(pinned("drift-preview-refresh", "bot-b", OLD, NEW)));
    expect(moved.report.drifted).toEqual([]);
    expect(moved.report.movedTags.map((m) => m.resource)).toEqual(["bot-b"]);
    expect(moved.drifted).toBe(true);
    expect(moved.markdown).toContain("Project `agent-hosting-e2e`: **1** with a new build behind the tag");

    const same = reviewDrift(onlyBotB(pinned("drift-preview-refresh", "bot-b", OLD, OLD)));
    expect(same.report.movedTags).toEqual([]);
    expect(same.drifted).toBe(false);
    expect(same.markdown).not.toContain("new build");
  });
});
