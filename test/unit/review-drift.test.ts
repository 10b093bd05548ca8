/**
 * The drift report on documents the real CLI printed (captured by
 * test/e2e/drift.test.ts and test/e2e/drift-native.test.ts): a refresh
 * preview of dynamic and of native Agents, a preview with --refresh, and a
 * clean stack; and on rewrites of them.
 */
import { describe, expect, it } from "vitest";
import { GITHUB_COMMENT_LIMIT } from "../../src/review/comment";
import { reviewDrift } from "../../src/review/review";
import { fixtureText } from "./support/review-fixtures";

describe("drift from pulumi refresh --preview-only --json", () => {
  it("native Agents: each changed field (the stack's value, the service's) and the deleted agent, deleted first", () => {
    const { report, drifted, markdown } = reviewDrift(fixtureText("drift-refresh-native"));
    expect(drifted).toBe(true);
    expect(report.source).toBe("refresh-preview");
    expect(report.drifted.map((a) => [a.resource, a.kind, a.provider])).toEqual([
      ["bot-c", "deleted", "native"],
      ["bot-a", "changed", "native"],
      ["bot-b", "changed", "native"],
    ]);
    expect(report.drifted[1]?.fields).toEqual([
      { name: "image", expected: { kind: "value", value: "registry.example.com/bot:1" }, atService: { kind: "value", value: "registry.example.com/bot:9" } },
    ]);
    expect(report.drifted[2]?.fields.map((f) => f.name)).toEqual(["autoScaling"]);
    expect(report.unattributed).toBe(0);
    expect(markdown.indexOf("Deleted outside Pulumi")).toBeLessThan(markdown.indexOf("### Changed outside Pulumi"));
    expect(markdown).toContain("<details><summary>The whole refresh</summary>");
  });

  it("dynamic Agents: the deleted agent by name, the changed ones counted with the Agents read (no per-field diff in this document)", () => {
    const { report, drifted, markdown } = reviewDrift(fixtureText("drift-refresh-dynamic"));
    expect(drifted).toBe(true);
    expect(report.drifted.map((a) => [a.resource, a.kind])).toEqual([["bot-c", "deleted"]]);
    expect(report.unattributed).toBe(2);
    expect(report.unattributedCandidates).toEqual(["bot-a", "bot-b"]);
    expect(markdown).toContain("Run `pulumi preview --refresh --json` for the fields.");
    expect(markdown).not.toContain("__provider");
  });

  it("a clean stack: no drift; with skipNoChanges, the marker line alone", () => {
    const { drifted, markdown } = reviewDrift(fixtureText("drift-clean"));
    expect(drifted).toBe(false);
    expect(markdown).toContain("no drift. Every Agent matches the stack's state.");
    expect(markdown).not.toContain("To resolve");
    expect(reviewDrift(fixtureText("drift-clean"), { skipNoChanges: true }).markdown).toBe(
      "<!-- agent-hosting-drift project=agent-hosting-e2e stack=dev -->\n",
    );
  });
});

describe("drift from pulumi preview --refresh --json", () => {
  it("dynamic Agents: each field, the program's value against the service's; the deleted agent", () => {
    const { report, markdown } = reviewDrift(fixtureText("drift-preview-refresh"), { identity: { stack: "prod" } });
    expect(report.source).toBe("preview-refresh");
    expect(report.stack).toBe("prod");
    expect(report.drifted.map((a) => [a.resource, a.kind, a.fields.map((f) => f.name)])).toEqual([
      ["bot-c", "deleted", []],
      ["bot-a", "changed", ["image"]],
      ["bot-b", "changed", ["autoScaling"]],
    ]);
    expect(markdown.split("\n")[0]).toBe("<!-- agent-hosting-drift project=agent-hosting-e2e stack=prod -->");
    expect(markdown).toContain("| field | in the program | at the service |");
  });

  it("a program change not yet applied (an Agent the state never had) is not drift", () => {
    const document = JSON.parse(fixtureText("drift-preview-refresh")) as { steps: { op: string; urn: string }[] };
    // bot-c without its refresh step: an Agent new in the program, not one deleted at the service.
    document.steps = document.steps.filter((s) => !(s.op === "refresh" && s.urn.endsWith("::bot-c")));
    const { report } = reviewDrift(JSON.stringify(document));
    expect(report.drifted.map((a) => a.resource)).toEqual(["bot-a", "bot-b"]);
    expect(report.pending).toEqual(["bot-c"]);
  });

  it("a secret value at both ends counts only when the provider's diff names it", () => {
    const text = fixtureText("drift-refresh-native").split('"registry.example.com/bot:9"').join('"[secret]"').split('"registry.example.com/bot:1"').join('"[secret]"');
    const { report } = reviewDrift(text);
    const botA = report.drifted.find((a) => a.resource === "bot-a");
    expect(botA?.fields).toEqual([{ name: "image", expected: { kind: "secret" }, atService: { kind: "secret" } }]);
    const unnamed = JSON.parse(text) as { steps: { urn: string; detailedDiff?: unknown; diffReasons?: unknown }[] };
    for (const step of unnamed.steps) {
      if (step.urn.endsWith("::bot-a")) {
        step.detailedDiff = null;
        delete step.diffReasons;
      }
    }
    expect(reviewDrift(JSON.stringify(unnamed)).report.drifted.find((a) => a.resource === "bot-a")?.fields).toEqual([]);
  });

  it("stays under GitHub's comment limit with a very long whole refresh, cut from the front", () => {
    const document = JSON.parse(fixtureText("drift-preview-refresh")) as { steps: { urn: string }[] };
    const step = JSON.stringify(document.steps.find((s) => s.urn.endsWith("::bot-a")));
    const copies = Array.from({ length: 2_000 }, (_, i) => JSON.parse(step.split("::bot-a").join(`::bot-${i}`)) as { urn: string });
    const { markdown } = reviewDrift(JSON.stringify({ ...document, steps: [...document.steps, ...copies] }));
    expect(markdown.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(markdown).toMatch(/… \d+ characters cut from the front/);
  });
});
