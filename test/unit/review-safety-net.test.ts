/**
 * The review flags a change that lowers an Agent's safety net, on the update
 * preview the real CLI printed (test/unit/fixtures/review/update.json) with
 * the settings rewritten: onFailure turned from "rollback" to "keep", a
 * healthCheck removed; a change that keeps both is not flagged.
 */
import { describe, expect, it } from "vitest";
import { reviewPreview } from "../../src/review/review";
import { fixtureText } from "./support/review-fixtures";

const CHECK = { failOnLogQuery: "panic", watchSeconds: 60 };

/** The update fixture with bot-a's settings before and after rewritten. */
function update(before: Record<string, unknown>, after: Record<string, unknown>): string {
  let text = fixtureText("update");
  const write = (input: string, value: unknown, state: "newState" | "oldState") => {
    const document = JSON.parse(text) as { steps: Record<string, unknown>[] };
    const step = document.steps.find((s) => String(s["urn"]).endsWith("::bot-a"));
    const inputs = (step?.[state] as Record<string, Record<string, unknown>>)["inputs"] as Record<string, unknown>;
    if (value === undefined) delete inputs[input];
    else inputs[input] = value;
    text = JSON.stringify(document);
  };
  for (const [input, value] of Object.entries(before)) write(input, value, "oldState");
  for (const [input, value] of Object.entries(after)) write(input, value, "newState");
  return text;
}

describe("the review of a change to onFailure or healthCheck", () => {
  it("warns when onFailure turns from rollback to keep and when healthCheck is removed", () => {
    const { markdown } = reviewPreview(update({ onFailure: "rollback", healthCheck: CHECK }, { onFailure: "keep", healthCheck: undefined }));
    expect(markdown).toContain(
      [
        "> [!WARNING]",
        "> **Safety net lowered** for `bot-a`:",
        "> - `onFailure` `rollback` → `keep`: a deployment that fails is no longer rolled back",
        "> - `healthCheck` removed: the logs of new deployments are no longer checked",
      ].join("\n"),
    );
    // The properties list shows both changes too.
    expect(markdown).toContain("- `onFailure`: `rollback` → `keep` _(provider setting; not sent to the service)_");
  });

  it("does not warn when the change keeps rollback and the health check, or turns them on", () => {
    for (const [before, after] of [
      [{ onFailure: "rollback", healthCheck: CHECK }, { onFailure: "rollback", healthCheck: { ...CHECK, watchSeconds: 30 } }],
      [{ onFailure: "keep", healthCheck: undefined }, { onFailure: "rollback", healthCheck: CHECK }],
    ] as const) {
      expect(reviewPreview(update(before, after)).markdown).not.toContain("Safety net lowered");
    }
  });
});
