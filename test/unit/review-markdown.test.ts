/**
 * The review's Markdown on previews the real CLI printed (the fixtures
 * captured by test/e2e/review.test.ts), and on rewrites of them.
 */
import { describe, expect, it } from "vitest";
import { PROVIDER_IMPLEMENTATION_MODULE } from "../../src/resources/agent/type-tokens";
import { DYNAMIC_AGENT_TYPE, NATIVE_AGENT_TYPE } from "../../src/resources/agent/type-tokens";
import { GENERIC_DYNAMIC_TYPE } from "../../src/review/agent-types";
import { commentMarker, GITHUB_COMMENT_LIMIT } from "../../src/review/comment";
import { MAX_REVIEW_LENGTH } from "../../src/review/markdown";
import { reviewPreview } from "../../src/review/review";
import { maskSecretsInText } from "../../src/review/secrets";
import { fixtureText, withInput } from "./support/review-fixtures";

describe("the review of a create", () => {
  it("gives the stack, the counts and every Agent's inputs, the secret image masked, nothing of __provider", () => {
    const { summary: markdown, agents, blocked } = reviewPreview(fixtureText("create"), ["replace", "delete"]);
    expect(agents.map((a) => [a.resource, a.operation, a.provider])).toEqual([
      ["bot-a", "create", "dynamic"],
      ["bot-c", "create", "dynamic"],
    ]);
    expect(blocked).toEqual([]);
    expect(markdown).toBe(
      [
        commentMarker("review", "agent-hosting-e2e", "dev"),
        "## Agent Hosting preview: stack `dev`",
        "",
        "Project `agent-hosting-e2e`: **3** to create",
        "",
        "### Agents",
        "",
        "#### `bot-a`: create",
        "- `serviceName`: `bot-a`",
        "- `image`: `registry.example.com/bot:1`",
        "- `nodeType`: `arm`",
        "- `enableNoise`: `false`",
        "- `waitForReady`: `true` _(provider setting; not sent to the service)_",
        "- `readyTimeoutSeconds`: `600` _(provider setting; not sent to the service)_",
        "",
        "#### `bot-c`: create",
        "- `serviceName`: `bot-c`",
        "- `image`: `[secret]`",
        "- `nodeType`: `arm`",
        "- `secretSet`: `voice-secrets`",
        "- `enableNoise`: `false`",
        "- `waitForReady`: `true` _(provider setting; not sent to the service)_",
        "- `readyTimeoutSeconds`: `600` _(provider setting; not sent to the service)_",
        "",
      ].join("\n"),
    );
    // The provider's reserved inputs and the `name` that check carries among them stay out.
    for (const key of ["__provider", "__secretInputs", "__urn", '"name"']) expect(fixtureText("create")).toContain(key);
    expect(markdown).not.toMatch(/__provider|__secretInputs|__urn|`name`/);
  });
});

describe("the review of an update in place", () => {
  it("lists each changed property before → after: image, scaling, secret set, noise, a setting", () => {
    const { markdown, agents } = reviewPreview(fixtureText("update"));
    const botA = agents.find((a) => a.resource === "bot-a");
    expect(botA?.operation).toBe("update");
    expect(botA?.properties.map((p) => p.name)).toEqual(["image", "secretSet", "autoScaling", "enableNoise", "readyTimeoutSeconds"]);
    expect(markdown).toContain("**2** to update");
    expect(markdown).toContain(
      [
        "#### `bot-a`: update in place",
        "- `image`: `registry.example.com/bot:1` → `registry.example.com/bot:2`",
        "- `secretSet`: _not set_ → `voice-secrets`",
        '- `autoScaling`: _not set_ → `{"maxAgents":3,"minAgents":1}`',
        "- `enableNoise`: `false` → `true`",
        "- `readyTimeoutSeconds`: `600` → `120` _(provider setting; not sent to the service)_",
      ].join("\n"),
    );
    expect(markdown).not.toContain("[!WARNING]");
  });

  it("masks a changed secret input, and says the preview cannot show whether it changes", () => {
    const { markdown } = reviewPreview(fixtureText("update"));
    expect(markdown).toContain(
      "#### `bot-c`: update in place\n- `image`: `[secret]` → `[secret]` _(secret: the preview masks both values, so it may be unchanged)_",
    );
  });

  it("shows nothing of the outputs (the real preview with a plain value rewritten into an output)", () => {
    const document = JSON.parse(fixtureText("update")) as { steps: { urn: string; oldState?: { outputs?: Record<string, unknown> } }[] };
    const outputs = document.steps.find((step) => step.urn.endsWith("::bot-c"))?.oldState?.outputs;
    expect(outputs).toBeDefined();
    (outputs as Record<string, unknown>)["manifest"] = { spec: { image: "registry.example.com/only-in-outputs:1" } };
    expect(reviewPreview(JSON.stringify(document)).markdown).not.toContain("only-in-outputs");
  });

  it("says a redeployTrigger change rolls out a new deployment (the real preview with the input rewritten)", () => {
    const { markdown } = reviewPreview(withInput("update", "bot-a", "redeployTrigger", "push-2"));
    expect(markdown).toContain("- `redeployTrigger`: _not set_ → `push-2` _(provider setting: rolls out a new deployment of the same spec)_");
  });

  it("lists a secret-set change and an unknown value as known after apply", () => {
    const changed = withInput("update", "bot-c", "secretSet", "04da6b54-80e4-46f7-96ec-b56ff0331ba9");
    const { markdown } = reviewPreview(changed);
    expect(markdown).toContain("- `secretSet`: `voice-secrets` → _known after apply_");
  });
});

describe("the review of `pulumi preview --refresh --json`", () => {
  it("reads each Agent's change from the state the refresh read, not the one recorded before it", () => {
    // Outside Pulumi, bot-a's image became :9 and bot-b's scaling 2..6; the refresh steps (first) still hold the recorded :1 and 1..2.
    const { summary, agents } = reviewPreview(fixtureText("drift-preview-refresh"));
    expect(agents.find((a) => a.resource === "bot-a")?.steps).toEqual(["refresh", "update"]);
    expect(summary).toContain(
      [
        "#### `bot-a`: update in place",
        "- `image`: `registry.example.com/bot:9` → `registry.example.com/bot:1`",
        "",
        "#### `bot-b`: update in place",
        '- `autoScaling`: `{"maxAgents":6,"minAgents":2}` → `{"maxAgents":2,"minAgents":1}`',
        "",
        "#### `bot-c`: create",
      ].join("\n"),
    );
  });
});

describe("the review of a replace", () => {
  it("warns with the old and new serviceName, and lists the Agent under --fail-on replace", () => {
    const { markdown, blocked } = reviewPreview(fixtureText("replace"), ["replace", "delete"]);
    expect(blocked.map((a) => a.resource)).toEqual(["bot-a"]);
    expect(markdown).toContain(
      [
        "> [!WARNING]",
        "> **Replace** of `bot-a` (forced by `serviceName`): `serviceName` `bot-a` → `bot-a-v2`.",
        "> The old agent `bot-a` is deleted, with its deployments and sessions.",
      ].join("\n"),
    );
    expect(markdown).toContain("#### `bot-a`: replace\n- `serviceName`: `bot-a` → `bot-a-v2`");
    expect(markdown).toContain("**Approval required:** `bot-a` (replace); `--fail-on replace,delete` refuses it.");
    expect(reviewPreview(fixtureText("replace"), ["delete"]).blocked).toEqual([]);
  });
});

describe("the review of a replace previewed with --show-replacement-steps --show-sames", () => {
  it("folds the replacement steps into one replace and lists the unchanged Agent", () => {
    const { markdown, agents } = reviewPreview(fixtureText("replace-steps"));
    const botA = agents.find((a) => a.resource === "bot-a");
    expect(botA?.steps).toEqual(expect.arrayContaining(["create-replacement", "replace", "delete-replaced"]));
    expect(agents.map((a) => [a.resource, a.operation])).toEqual([
      ["bot-a", "replace"],
      ["bot-c", "same"],
    ]);
    expect(botA?.properties).toEqual(reviewPreview(fixtureText("replace")).agents[0]?.properties);
    expect(markdown).toContain("Same (no change): `bot-c`");
    expect(markdown).not.toContain("--show-sames");
    expect(markdown.match(/> \[!WARNING\]/g)).toHaveLength(1);
  });

  it("without --show-sames, says the unchanged Agents are not listed", () => {
    expect(reviewPreview(fixtureText("replace")).markdown).toContain(
      "_The preview ran without `--show-sames`, so any unchanged Agents are not listed._",
    );
  });
});

describe("the review of a delete", () => {
  it("warns that the agent is deleted and lists its old inputs, the secret image masked", () => {
    const { markdown, agents, blocked } = reviewPreview(fixtureText("delete"), ["delete"]);
    expect(agents.map((a) => [a.resource, a.operation])).toEqual([["bot-c", "delete"]]);
    expect(blocked).toHaveLength(1);
    expect(markdown).toContain("**1** to delete · **2** unchanged");
    expect(markdown).toContain("> [!CAUTION]\n> **Delete** of `bot-c`: the agent `bot-c` is deleted, with its deployments and sessions.");
    expect(markdown).toContain("#### `bot-c`: delete\n- `serviceName`: `bot-c`\n- `image`: `[secret]`\n- `nodeType`: `arm`\n- `secretSet`: `voice-secrets`");
  });
});

describe("the review of a preview that failed", () => {
  it("shows the engine's error with the secret value it printed masked", () => {
    const text = fixtureText("failed");
    const leaked = /value \{&\{\{([^}]+)\}\}\}/.exec(text)?.[1];
    expect(leaked).toMatch(/^registry\.example\.com\/private-bot/);
    const { markdown } = reviewPreview(text);
    expect(markdown).not.toContain(leaked as string);
    expect(markdown).toContain(
      "### Preview errors\n\n```\nerror: pulumi-nodejs:dynamic/agent-hosting:Agent resource 'bot-c': property image value {[secret]} has a problem: must carry a tag (name:tag) or a digest (name@sha256:...)\n```",
    );
  });

  it("masks a secret the engine printed as an object, braces and all", () => {
    expect(maskSecretsInText("value {&{{map[a:{b}]}}} has a problem; value {&{{x}}}")).toBe("value {[secret]} has a problem; value {[secret]}");
  });
});

describe("which resources are Agents", () => {
  const asType = (text: string, type: string) => text.split(DYNAMIC_AGENT_TYPE).join(type);

  it("a native agent-hosting:index:Agent (the real dynamic preview with its type rewritten) reads the same", () => {
    for (const name of ["create", "update", "replace", "delete"] as const) {
      const dynamic = reviewPreview(fixtureText(name));
      const native = reviewPreview(asType(fixtureText(name), NATIVE_AGENT_TYPE));
      expect(native.agents.map((a) => a.provider)).toEqual(dynamic.agents.map(() => "native"));
      expect(native.agents.map((a) => [a.resource, a.operation, a.properties])).toEqual(
        dynamic.agents.map((a) => [a.resource, a.operation, a.properties]),
      );
      expect(native.markdown).toContain("_native provider_");
    }
  });

  it("the generic pulumi-nodejs:dynamic:Resource (the real preview with its type rewritten) is an Agent by its provider code", () => {
    const generic = reviewPreview(asType(fixtureText("update"), GENERIC_DYNAMIC_TYPE));
    expect(generic.agents.map((a) => [a.resource, a.operation, a.provider])).toEqual([
      ["bot-a", "update", "dynamic"],
      ["bot-c", "update", "dynamic"],
    ]);
    const otherCode = asType(fixtureText("update"), GENERIC_DYNAMIC_TYPE).split(PROVIDER_IMPLEMENTATION_MODULE).join("another-package/impl");
    expect(reviewPreview(otherCode).agents).toEqual([]);
  });

  it("another type (the real preview with its type rewritten) is only counted", () => {
    const { agents, markdown } = reviewPreview(asType(fixtureText("replace"), "random:index:RandomPet"), ["replace"]);
    expect(agents).toEqual([]);
    expect(markdown).toContain("**1** to replace");
    expect(markdown).toContain("No Agent in this preview.");
  });
});

describe("secrets in Pulumi's serialized forms (the real preview with one input rewritten)", () => {
  const SIG = "4dabf18193072939515e22adb298388d";

  it("a secret value with the signature key is masked", () => {
    const text = withInput("create", "bot-a", "image", { [SIG]: "1b47061264138c4ac30d75fd1eb44270", value: "registry.example.com/hidden:1" });
    const { markdown } = reviewPreview(text);
    expect(markdown).toContain("#### `bot-a`: create\n- `serviceName`: `bot-a`\n- `image`: `[secret]`");
    expect(markdown).not.toContain("hidden");
  });

  it("an output value flagged secret is masked; a plain one shows its value", () => {
    const secret = withInput("create", "bot-a", "image", { [SIG]: "d0e6a833031e9bbcd3f4e8bde6ca49a4", value: "registry.example.com/hidden:1", secret: true });
    expect(reviewPreview(secret).markdown).not.toContain("hidden");
    const plain = withInput("create", "bot-a", "image", { [SIG]: "d0e6a833031e9bbcd3f4e8bde6ca49a4", value: "registry.example.com/open:1" });
    expect(reviewPreview(plain).markdown).toContain("- `image`: `registry.example.com/open:1`");
  });

  it("a secret inside a property masks the whole property, before and after", () => {
    const text = withInput("update", "bot-a", "autoScaling", { minAgents: 1, maxAgents: "[secret]" });
    const { markdown } = reviewPreview(text);
    expect(markdown).toContain("- `autoScaling`: _not set_ → `[secret]`");
    expect(markdown).not.toContain('"maxAgents"');
  });
});

describe("text from the preview cannot break the Markdown", () => {
  it("backticks and newlines in a value stay inside one code span", () => {
    const text = withInput("create", "bot-a", "image", "evil`image\n## heading");
    const { markdown } = reviewPreview(text);
    expect(markdown).toContain("- `image`: ``evil`image ## heading``");
    expect(markdown).not.toContain("\n## heading");
  });
});

describe("a review too long for one comment", () => {
  it("stays under MAX_REVIEW_LENGTH and counts what it leaves out (800 replaces: the real replace preview's step, copied)", () => {
    const document = JSON.parse(fixtureText("replace")) as { steps: { urn: string }[] };
    const step = JSON.stringify(document.steps.find((s) => s.urn.endsWith("::bot-a")));
    const copies = Array.from({ length: 800 }, (_, i) => JSON.parse(step.split("::bot-a").join(`::bot-${String(i).padStart(3, "0")}`)) as { urn: string });
    const { markdown: comment, summary: markdown, agents, blocked } = reviewPreview(JSON.stringify({ ...document, steps: copies }), ["replace"]);
    expect(agents).toHaveLength(800);
    expect(blocked).toHaveLength(800);
    expect(markdown.length).toBeLessThanOrEqual(MAX_REVIEW_LENGTH);
    // The whole preview follows in a collapsible block, cut from the front to stay under GitHub's limit; the warnings stay first.
    expect(comment.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(comment.startsWith(markdown)).toBe(true);
    expect(comment).toMatch(/<details><summary>The whole preview<\/summary>\n\n```+\n… \d+ characters cut from the front, to stay under GitHub's comment limit …\n/);
    expect(comment.trimEnd().endsWith("</details>")).toBe(true);
    expect(comment).toContain("bot-799");
    expect(markdown.startsWith(commentMarker("review", "agent-hosting-e2e", "dev"))).toBe(true);
    const shownWarnings = markdown.match(/> \[!WARNING\]/g)?.length ?? 0;
    const shownSections = markdown.match(/^#### /gm)?.length ?? 0;
    expect(shownWarnings).toBeGreaterThan(0);
    expect(markdown).toContain(`_Not shown, to stay under GitHub's size limit for a comment: ${800 - shownWarnings} warnings, ${800 - shownSections} Agents.`);
    expect(markdown).toContain("(replace) and 780 more; `--fail-on replace` refuses it.");
  });
});


describe("the comment of one stack among many", () => {
  it("its marker names the project and the stack of the URNs, or the ones given: two stacks keep two comments", () => {
    const dev = reviewPreview(fixtureText("update")).markdown;
    const prod = reviewPreview(fixtureText("update").split("urn:pulumi:dev::").join("urn:pulumi:prod::")).markdown;
    expect(dev.split("\n")[0]).toBe(commentMarker("review", "agent-hosting-e2e", "dev"));
    expect(prod.split("\n")[0]).toBe(commentMarker("review", "agent-hosting-e2e", "prod"));
    expect(prod).toContain("## Agent Hosting preview: stack `prod`");
    const given = reviewPreview(fixtureText("update"), [], { identity: { project: "voice", stack: "acme/prod" } }).markdown;
    expect(given.split("\n")[0]).toBe("<!-- agent-hosting-review project=voice stack=acme/prod -->");
    // Nothing in a name can close the HTML comment early.
    expect(commentMarker("review", "a-->b", "c d")).toBe("<!-- agent-hosting-review project=a-_b stack=c_d -->");
  });

  it("the replace and delete warnings come first, then the Agents, then the whole preview folded", () => {
    const { markdown } = reviewPreview(fixtureText("replace"));
    const warning = markdown.indexOf("> [!WARNING]");
    expect(warning).toBeGreaterThan(0);
    expect(warning).toBeLessThan(markdown.indexOf("### Agents"));
    expect(markdown.indexOf("### Agents")).toBeLessThan(markdown.indexOf("<details><summary>The whole preview</summary>"));
    // The whole preview lists every resource's step, secrets masked, nothing of the provider's code.
    const whole = markdown.slice(markdown.indexOf("<details>"));
    expect(whole).toMatch(/pulumi-nodejs:dynamic\/agent-hosting:Agent {2}bot-a/);
    expect(whole).not.toContain("__provider");
    expect(whole).not.toContain("exports.handler");
  });

  it("skipNoChanges: a preview without changes gives the marker line alone; one with changes or errors, the whole comment", () => {
    const noChanges = JSON.stringify({ ...JSON.parse(fixtureText("update")), changeSummary: { same: 3 } });
    expect(reviewPreview(noChanges, [], { skipNoChanges: true }).markdown).toBe(`${commentMarker("review", "agent-hosting-e2e", "dev")}\n`);
    expect(reviewPreview(fixtureText("update"), [], { skipNoChanges: true }).markdown).toContain("### Agents");
    const failedNoChanges = JSON.stringify({ ...JSON.parse(fixtureText("failed")), changeSummary: {} });
    expect(reviewPreview(failedNoChanges, [], { skipNoChanges: true }).markdown).toContain("### Preview errors");
  });
});
