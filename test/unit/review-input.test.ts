/** The review's command line and its reading of the preview document: clear errors naming the field. */
import { describe, expect, it } from "vitest";
import { parseReviewArgs, REVIEW_COMMANDS, REVIEW_FLAGS, USAGE } from "../../src/review/flags";
import { parsePreview, PreviewFormatError } from "../../src/review/preview";
import { fixtureText } from "./support/review-fixtures";

describe("parseReviewArgs", () => {
  const defaults = { command: "preview", failOn: [], failOnDrift: false, skipNoChanges: false, help: false, version: false } as const;

  it("takes a file, or - or nothing for stdin, and a comma-separated --fail-on", () => {
    expect(parseReviewArgs(["preview.json", "--fail-on", "replace,delete"])).toEqual({
      ok: true,
      options: { ...defaults, file: "preview.json", failOn: ["replace", "delete"] },
    });
    expect(parseReviewArgs(["-", "--fail-on=delete"])).toEqual({ ok: true, options: { ...defaults, failOn: ["delete"] } });
    expect(parseReviewArgs([])).toEqual({ ok: true, options: defaults });
    expect(parseReviewArgs(["--help"])).toEqual({ ok: true, options: { ...defaults, help: true } });
    expect(parseReviewArgs(["-h"])).toEqual({ ok: true, options: { ...defaults, help: true } });
    expect(parseReviewArgs(["--version"])).toEqual({ ok: true, options: { ...defaults, version: true } });
  });

  it("takes the drift and up commands (drift also as --drift), the stack's names, --skip-no-changes and --previous", () => {
    const drift = { ok: true, options: { ...defaults, command: "drift", file: "refresh.json", failOnDrift: true } };
    expect(parseReviewArgs(["drift", "refresh.json", "--fail-on", "drift"])).toEqual(drift);
    expect(parseReviewArgs(["--drift", "refresh.json", "--fail-on", "drift"])).toEqual(drift);
    expect(parseReviewArgs(["preview.json", "--skip-no-changes", "--stack", "acme/prod", "--project", "bots"])).toEqual({
      ok: true,
      options: { ...defaults, file: "preview.json", skipNoChanges: true, stack: "acme/prod", project: "bots" },
    });
    expect(parseReviewArgs(["up", "up.json", "--previous", "comment.md"])).toEqual({
      ok: true,
      options: { ...defaults, command: "up", file: "up.json", previous: "comment.md" },
    });
  });

  it.each([
    [["--fail-on", "replace,destroy"], '--fail-on takes a comma-separated list of create, update, replace, delete, live-sessions (or drift, with drift); "destroy" is not one'],
    [["--fail-on", ""], '"" is not one'],
    [["--fail-on", "drift"], '"drift" is not one'],
    [["drift", "--fail-on", "replace"], 'with drift, --fail-on takes only "drift"; "replace" is not it'],
    [["up", "--fail-on", "replace"], "--fail-on does not apply to the up command"],
    [["up", "--drift"], "--drift cannot go with the up command"],
    [["preview.json", "--previous", "c.md"], "--previous goes with the up command only, not preview"],
    [["--stack", " "], "--stack needs a non-empty name"],
    [["a.json", "b.json"], "expected at most one input file, got 2: a.json b.json"],
    [["--fail"], "Unknown option '--fail'"],
    [["--fail-on"], "Option '--fail-on <value>' argument missing"],
  ])("%j is refused: %s", (argv, message) => {
    const parsed = parseReviewArgs(argv);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.message).toContain(message);
  });

  it("the usage names every command, and every flag of the table with its default", () => {
    for (const name of Object.keys(REVIEW_COMMANDS)) expect(USAGE).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    for (const [name, spec] of Object.entries(REVIEW_FLAGS)) {
      expect(USAGE).toMatch(new RegExp(`--${name}\\b.*\\(default: ${spec.defaultText.replace(/[()]/g, "\\$&")}\\)`));
    }
  });
});

describe("parsePreview", () => {
  it("reads the real CLI's document", () => {
    const digest = parsePreview(fixtureText("update"));
    expect(digest.changeSummary).toEqual({ same: 1, update: 2 });
    expect(digest.steps.length).toBeGreaterThan(1);
    expect(digest.steps.every((s) => s.urn.startsWith("urn:pulumi:dev::agent-hosting-e2e::"))).toBe(true);
  });

  it.each([
    ["", "the input is not JSON (the input is empty)"],
    ["Previewing update (dev):", "the input is not JSON"],
    ["[]", "the document must be a JSON object"],
    ['{"steps": {}}', "steps must be a list"],
    ['{"steps": [{"op": "create"}]}', "steps[0].urn must be a Pulumi URN"],
    ['{"steps": [{"urn": "urn:pulumi:dev::p::t::n"}]}', "steps[0].op must be a string"],
    ['{"steps": [{"op": "update", "urn": "urn:pulumi:dev::p::t::n", "newState": {"inputs": []}}]}', "steps[0].newState.inputs must be an object"],
    ['{"changeSummary": {"create": -1}}', "changeSummary.create must be a count"],
  ])("%j is refused: %s", (text, message) => {
    expect(() => parsePreview(text)).toThrow(PreviewFormatError);
    expect(() => parsePreview(text)).toThrow(message);
  });
});
