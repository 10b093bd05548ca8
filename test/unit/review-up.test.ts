/**
 * The comment after `pulumi up`, on what `pulumi up --json` printed in
 * test/e2e/drift.test.ts (a digest, then one engine event per line): the
 * applied deployments, a refused update, the reviewed preview kept below.
 */
import { describe, expect, it } from "vitest";
import { GITHUB_COMMENT_LIMIT } from "../../src/review/comment";
import { jsonDocuments } from "../../src/review/json-documents";
import { PreviewFormatError } from "../../src/review/preview";
import { reviewPreview, reviewUp } from "../../src/review/review";
import { fixtureText, upFixtureText } from "./support/review-fixtures";

const MARKER = "<!-- agent-hosting-review project=agent-hosting-e2e stack=dev -->";

describe("the comment after pulumi up", () => {
  it("an up that created three Agents: each with its deployment id, by name; the preview's marker", () => {
    const { markdown, result } = reviewUp(upFixtureText("up-create"));
    expect(result.failed).toBe(false);
    expect(result.agents.map((a) => [a.resource, a.op])).toEqual([
      ["bot-a", "create"],
      ["bot-b", "create"],
      ["bot-c", "create"],
    ]);
    for (const agent of result.agents) expect(agent.deploymentAfter).toMatch(/^dep-[0-9a-f]+$/);
    expect(markdown.split("\n").slice(0, 4)).toEqual([MARKER, "## Agent Hosting update applied: stack `dev`", "", "Project `agent-hosting-e2e`: **4** created"]);
    expect(markdown).toContain(`| \`bot-a\` | created | \`${result.agents[0]?.deploymentAfter}\` |`);
  });

  it("an update the service refused: the failure first with the engine's error, then what was applied", () => {
    const { markdown, result } = reviewUp(upFixtureText("up-failed"));
    expect(result.failed).toBe(true);
    const failed = result.agents.find((a) => a.resource === "bot-b");
    expect(failed?.errors.join("\n")).toContain("POST /v1/agents/bot-b failed with 400");
    expect(markdown).toContain("## Agent Hosting update failed: stack `dev`");
    expect(markdown.indexOf("> **Failed:** `bot-b` (update)")).toBeLessThan(markdown.indexOf("### Agents"));
    expect(markdown).toMatch(/\| `bot-a` \| updated \| `dep-[0-9a-f]+` → `dep-[0-9a-f]+` \|/);
    expect(markdown).toMatch(/\| `bot-c` \| created \| `dep-[0-9a-f]+` \|/);
  });

  it("keeps the reviewed preview folded below, without its marker; a second up replaces the applied part, not the preview", () => {
    const preview = reviewPreview(fixtureText("update")).markdown;
    const first = reviewUp(upFixtureText("up-create"), { previous: preview }).markdown;
    expect(first.match(/<!-- agent-hosting-review/g)).toHaveLength(1);
    expect(first).toContain("<details><summary>The preview reviewed in this pull request</summary>\n\n## Agent Hosting preview: stack `dev`");
    const second = reviewUp(upFixtureText("up-failed"), { previous: first }).markdown;
    expect(second).toContain("## Agent Hosting update failed");
    expect(second).not.toContain("## Agent Hosting update applied");
    expect(second.match(/The preview reviewed in this pull request/g)).toHaveLength(1);
    expect(second).toContain("## Agent Hosting preview: stack `dev`");
  });

  it("a long previous comment is cut to stay under GitHub's limit", () => {
    const previous = `${MARKER}\n${"x".repeat(GITHUB_COMMENT_LIMIT)}`;
    const { markdown } = reviewUp(upFixtureText("up-create"), { previous });
    expect(markdown.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(markdown).toContain("_… the rest of the preview is cut, to stay under GitHub's comment limit._");
  });

  it("a document that is not `pulumi up --json` is refused, naming what was expected", () => {
    expect(() => reviewUp(fixtureText("update"))).toThrow(PreviewFormatError);
    expect(() => reviewUp(fixtureText("update"))).toThrow("the input holds no engine events");
    expect(() => reviewUp("")).toThrow("the input is not JSON (the input is empty); expected the output of `pulumi up --json`");
    expect(() => reviewUp('{"sequence": 1} oops')).toThrow('unexpected "o" at position 16 between JSON documents');
  });
});

describe("jsonDocuments", () => {
  it("splits documents one after another, braces inside strings left alone", () => {
    expect(jsonDocuments('{"a": "}{"}\n{"b": [1, {"c": "\\"}"}]}\n')).toEqual([{ a: "}{" }, { b: [1, { c: '"}' }] }]);
    expect(() => jsonDocuments('{"a": 1')).toThrow("the last JSON document is cut off");
  });
});
