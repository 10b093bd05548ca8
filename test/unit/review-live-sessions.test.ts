/**
 * The review marks a change that cuts an Agent's live sessions, on the
 * previews the real CLI printed (test/unit/fixtures/review/) with the
 * agent's last-read outputs rewritten: `activeSessionCount`, and
 * `desiredDeploymentId` for a service that rolls updates (the fixtures were
 * printed against one that switches at once, which sends none).
 */
import { describe, expect, it } from "vitest";
import { DYNAMIC_AGENT_TYPE, NATIVE_AGENT_TYPE } from "../../src/resources/agent/type-tokens";
import { parseReviewArgs } from "../../src/review/flags";
import { makesNewDeployment } from "../../src/review/live-sessions";
import { reviewPreview } from "../../src/review/review";
import { fixtureText, type FixtureName } from "./support/review-fixtures";

type Json = Record<string, unknown>;
interface Step {
  op: string;
  urn: string;
  oldState?: { inputs?: Json; outputs?: Json };
  newState?: { inputs?: Json; outputs?: Json };
}

/** The fixture with `resource`'s states rewritten: outputs and inputs of its old state (of its `op` step), inputs of its new state. */
function rewrite(
  name: FixtureName,
  resource: string,
  change: { outputs?: Json; oldInputs?: Json; newInputs?: Json; op?: string },
  text = fixtureText(name),
): string {
  const document = JSON.parse(text) as { steps: Step[] };
  const step = document.steps.find((s) => s.urn.endsWith(`::${resource}`) && (change.op === undefined || s.op === change.op));
  if (!step?.oldState?.outputs || !step.oldState.inputs) throw new Error(`${name}.json has no old state for ${resource}`);
  Object.assign(step.oldState.outputs, change.outputs ?? {});
  Object.assign(step.oldState.inputs, change.oldInputs ?? {});
  for (const [input, value] of Object.entries(change.newInputs ?? {})) {
    const inputs = step.newState?.inputs;
    if (!inputs) throw new Error(`${name}.json has no new state for ${resource}`);
    if (value === undefined) delete inputs[input];
    else inputs[input] = value;
  }
  return JSON.stringify(document);
}

const NOT_REFRESHED = "(as of the last `pulumi up` or refresh; `pulumi preview --refresh` reads the current count)";
const REFRESHED = "(as of this preview's refresh)";
const ROLLING = { desiredDeploymentId: "dep-e3a96b6d2411" };

describe("a delete of an agent with live sessions", () => {
  const text = rewrite("delete", "bot-c", { outputs: { activeSessionCount: 2 } });

  it("says how many are cut and that drainSeconds 0 does not wait; its section names the count; --fail-on live-sessions refuses it", () => {
    const { summary, blocked, agents } = reviewPreview(text, ["live-sessions"]);
    expect(agents[0]?.liveSessions).toEqual({ count: 2, by: "delete", refreshed: false, drainSeconds: { kind: "unset" } });
    expect(summary).toContain(
      [
        "> [!CAUTION]",
        "> **Delete** of `bot-c`: the agent `bot-c` is deleted, with its deployments and sessions.",
        `> **2 live sessions** ${NOT_REFRESHED} will be cut: \`drainSeconds\` is 0, so the delete does not wait for them to end.`,
        "> To let them end, set `drainSeconds` and run `pulumi up` before this change: a delete waits what the state records.",
        "",
        "### Agents",
        "",
        "#### `bot-c`: delete (2 live sessions)",
        "- `serviceName`: `bot-c`",
      ].join("\n"),
    );
    expect(blocked.map((a) => a.resource)).toEqual(["bot-c"]);
    expect(summary).toContain("**Approval required:** `bot-c` (delete, 2 live sessions); `--fail-on live-sessions` refuses it.");
  });

  it("with drainSeconds in the state: the sessions are cut unless they end within it", () => {
    const { summary } = reviewPreview(rewrite("delete", "bot-c", { outputs: { activeSessionCount: 2 }, oldInputs: { drainSeconds: 300 } }));
    expect(summary).toContain(
      [
        "> **Delete** of `bot-c`: the agent `bot-c` is deleted, with its deployments and sessions.",
        `> **2 live sessions** ${NOT_REFRESHED} will be cut unless they end within the 300 s (\`drainSeconds\`) the delete waits.`,
        "",
      ].join("\n"),
    );
    expect(summary).not.toContain("To let them end");
  });

  it("drainSeconds 0 written out reads as unset; one session reads in the singular", () => {
    const { summary } = reviewPreview(rewrite("delete", "bot-c", { outputs: { activeSessionCount: 1 }, oldInputs: { drainSeconds: 0 } }));
    expect(summary).toContain(
      [
        `> **1 live session** ${NOT_REFRESHED} will be cut: \`drainSeconds\` is 0, so the delete does not wait for it to end.`,
        "> To let it end, set `drainSeconds` and run `pulumi up` before this change: a delete waits what the state records.",
      ].join("\n"),
    );
    expect(summary).toContain("#### `bot-c`: delete (1 live session)");
  });

  it("without live-sessions in --fail-on, is refused only as a delete; with none live, is not marked", () => {
    expect(reviewPreview(text, ["replace"]).blocked).toEqual([]);
    expect(reviewPreview(text, ["delete"]).summary).toContain("**Approval required:** `bot-c` (delete, 2 live sessions); `--fail-on delete` refuses it.");
    const idle = reviewPreview(fixtureText("delete"), ["live-sessions"]);
    expect(idle.agents[0]?.liveSessions).toBeUndefined();
    expect(idle.blocked).toEqual([]);
    expect(idle.summary).not.toContain("live session");
  });

  it("a native Agent (the type rewritten) is marked alike", () => {
    const native = reviewPreview(text.split(DYNAMIC_AGENT_TYPE).join(NATIVE_AGENT_TYPE), ["live-sessions"]);
    expect(native.agents.map((a) => [a.provider, a.liveSessions?.count])).toEqual([["native", 2]]);
    expect(native.summary).toContain("#### `bot-c`: delete (2 live sessions)\n_native provider_");
  });
});

describe("a replace of an agent with live sessions", () => {
  it("the old agent's delete cuts them: the warning turns to a caution, and the section names the count", () => {
    const { summary, blocked } = reviewPreview(rewrite("replace", "bot-a", { outputs: { activeSessionCount: 2 } }), ["live-sessions"]);
    expect(summary).toContain(
      [
        "> [!CAUTION]",
        "> **Replace** of `bot-a` (forced by `serviceName`): `serviceName` `bot-a` → `bot-a-v2`.",
        "> The old agent `bot-a` is deleted, with its deployments and sessions.",
        `> **2 live sessions** ${NOT_REFRESHED} will be cut: \`drainSeconds\` is 0, so the old agent's delete does not wait for them to end.`,
        "> To let them end, set `drainSeconds` and run `pulumi up` before this change: a delete waits what the state records.",
        "",
        "### Agents",
        "",
        "#### `bot-a`: replace (2 live sessions)",
        "- `serviceName`: `bot-a` → `bot-a-v2`",
      ].join("\n"),
    );
    expect(summary).not.toContain("[!WARNING]");
    expect(blocked.map((a) => a.resource)).toEqual(["bot-a"]);
  });

  it("a drainSeconds new in the program does not drain the old agent, and the review says so", () => {
    const text = rewrite("replace", "bot-a", { outputs: { activeSessionCount: 2 }, newInputs: { drainSeconds: 300 } });
    expect(reviewPreview(text).summary).toContain(
      [
        `> **2 live sessions** ${NOT_REFRESHED} will be cut: \`drainSeconds\` is 0, so the old agent's delete does not wait for them to end.`,
        "> The old agent's delete waits what its state records, not the program's new `drainSeconds` (`300`): " +
          "to let the sessions end, apply that with a `pulumi up` before the replace.",
        "",
      ].join("\n"),
    );
    const kept = rewrite("replace", "bot-a", { outputs: { activeSessionCount: 2 }, oldInputs: { drainSeconds: 600 }, newInputs: { drainSeconds: 600 } });
    const { summary } = reviewPreview(kept);
    expect(summary).toContain(
      `> **2 live sessions** ${NOT_REFRESHED} will be cut unless they end within the 600 s (\`drainSeconds\`) the old agent's delete waits.\n\n`,
    );
  });

  it("previewed with --show-replacement-steps, reads the same", () => {
    const document = JSON.parse(fixtureText("replace-steps")) as { steps: Step[] };
    for (const step of document.steps.filter((s) => s.urn.endsWith("::bot-a") && s.oldState?.outputs)) Object.assign(step.oldState?.outputs ?? {}, { activeSessionCount: 2 });
    const { agents } = reviewPreview(JSON.stringify(document), ["live-sessions"]);
    expect(agents.find((a) => a.resource === "bot-a")?.liveSessions).toEqual({ count: 2, by: "replace", refreshed: false, drainSeconds: { kind: "unset" } });
  });
});

describe("an update of an agent with live sessions", () => {
  const UPDATE_WARNING = [
    "> [!WARNING]",
    `> **Update** of \`bot-a\`: **2 live sessions** ${NOT_REFRESHED} will be cut: this update makes a new deployment, ` +
      "and this service switches to it at once (the agent's outputs carry no `desiredDeploymentId`, which a service that rolls updates sends).",
    "",
  ].join("\n");

  it("on a service that switches at once (no desiredDeploymentId in the outputs): an image update cuts them", () => {
    const { summary, blocked } = reviewPreview(rewrite("update", "bot-a", { outputs: { activeSessionCount: 2 } }), ["live-sessions"]);
    expect(summary).toContain(UPDATE_WARNING);
    expect(summary).toContain("#### `bot-a`: update in place (2 live sessions)\n- `image`: `registry.example.com/bot:1` → `registry.example.com/bot:2`");
    expect(blocked.map((a) => a.resource)).toEqual(["bot-a"]);
    expect(summary).toContain("**Approval required:** `bot-a` (update, 2 live sessions); `--fail-on live-sessions` refuses it.");
  });

  it("on a service that rolls updates (desiredDeploymentId in the outputs): not marked, not refused", () => {
    const { summary, blocked, agents } = reviewPreview(rewrite("update", "bot-a", { outputs: { activeSessionCount: 2, ...ROLLING } }), ["live-sessions"]);
    expect(agents.find((a) => a.resource === "bot-a")?.liveSessions).toBeUndefined();
    expect(summary).not.toContain("live session");
    expect(summary).not.toContain("[!WARNING]");
    expect(blocked).toEqual([]);
  });

  it("a scaling-only or provider-settings-only update keeps the deployment: not marked; a redeployTrigger change makes one: marked", () => {
    /** bot-a's update with only these inputs changed: the rest of the new state as the old. */
    const only = (newInputs: Json): string => {
      const document = JSON.parse(fixtureText("update")) as { steps: Step[] };
      const step = document.steps.find((s) => s.urn.endsWith("::bot-a")) as Step;
      Object.assign(step.oldState?.outputs ?? {}, { activeSessionCount: 2 });
      (step.newState as { inputs: Json }).inputs = { ...step.oldState?.inputs, ...newInputs };
      return JSON.stringify(document);
    };
    const marked = (text: string) => reviewPreview(text, ["live-sessions"]).agents.find((a) => a.resource === "bot-a")?.liveSessions;
    expect(marked(only({ autoScaling: { minAgents: 1, maxAgents: 3 } }))).toBeUndefined();
    expect(marked(only({ readyTimeoutSeconds: 120, onFailure: "rollback" }))).toBeUndefined();
    expect(marked(only({ redeployTrigger: "push-2" }))).toEqual({ count: 2, by: "update", refreshed: false });
    expect(marked(only({ enableNoise: true }))).toEqual({ count: 2, by: "update", refreshed: false });
    expect(marked(only({ autoScaling: { minAgents: 1, maxAgents: 3 }, image: "registry.example.com/bot:2" }))).toEqual({ count: 2, by: "update", refreshed: false });
  });

  it("makesNewDeployment: any input sent to the service but the scaling, and redeployTrigger", () => {
    const names = (...list: string[]) => list.map((name) => ({ name }));
    expect(makesNewDeployment(names("image"))).toBe(true);
    expect(makesNewDeployment(names("secretSet"))).toBe(true);
    expect(makesNewDeployment(names("redeployTrigger"))).toBe(true);
    expect(makesNewDeployment(names("autoScaling", "waitForReady", "readyTimeoutSeconds", "onFailure", "healthCheck"))).toBe(false);
    expect(makesNewDeployment(names("not-a-field"))).toBe(false);
  });
});

describe("the counts of `pulumi preview --refresh --json`", () => {
  it("come from the state the refresh read, and the review says they are current", () => {
    // bot-a: the refresh step first (the state recorded before it, here 5 sessions), then the update step (the refreshed state, 2).
    const text = rewrite("drift-preview-refresh", "bot-a", { op: "update", outputs: { activeSessionCount: 2 } }, rewrite("drift-preview-refresh", "bot-a", { op: "refresh", outputs: { activeSessionCount: 5 } }));
    const { summary } = reviewPreview(text, ["live-sessions"]);
    expect(summary).toContain(
      `> **Update** of \`bot-a\`: **2 live sessions** ${REFRESHED} will be cut: this update makes a new deployment, and this service switches to it at once`,
    );
    expect(summary).toContain("#### `bot-a`: update in place (2 live sessions)\n- `image`: `registry.example.com/bot:9` → `registry.example.com/bot:1`");
  });
});

describe("--fail-on live-sessions", () => {
  it("is accepted with the operations; drift and up refuse it", () => {
    const parsed = parseReviewArgs(["preview.json", "--fail-on", "replace,live-sessions"]);
    expect(parsed.ok && parsed.options.failOn).toEqual(["replace", "live-sessions"]);
    const drift = parseReviewArgs(["drift", "--fail-on", "live-sessions"]);
    expect(drift.ok ? "" : drift.message).toBe('with drift, --fail-on takes only "drift"; "live-sessions" is not it');
  });
});
