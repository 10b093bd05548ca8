/** The review's command line and its reading of the preview document: clear errors naming the field. */
import { describe, expect, it } from "vitest";
import { parseReviewArgs, REVIEW_FLAGS, USAGE } from "../../src/review/flags";
import { parsePreview, PreviewFormatError } from "../../src/review/preview";
import { fixtureText } from "./support/review-fixtures";

describe("parseReviewArgs", () => {
  it("takes a file, or - or nothing for stdin, and a comma-separated --fail-on", () => {
    expect(parseReviewArgs(["preview.json", "--fail-on", "replace,delete"])).toEqual({
      ok: true,
      options: { file: "preview.json", failOn: ["replace", "delete"], help: false },
    });
    expect(parseReviewArgs(["-", "--fail-on=delete"])).toEqual({ ok: true, options: { failOn: ["delete"], help: false } });
    expect(parseReviewArgs([])).toEqual({ ok: true, options: { failOn: [], help: false } });
    expect(parseReviewArgs(["--help"])).toEqual({ ok: true, options: { failOn: [], help: true } });
  });

  it.each([
    [["--fail-on", "replace,destroy"], '--fail-on takes a comma-separated list of create, update, replace, delete; "destroy" is not one'],
    [["--fail-on", ""], '--fail-on takes a comma-separated list of create, update, replace, delete; "" is not one'],
    [["a.json", "b.json"], "expected at most one preview file, got 2: a.json b.json"],
    [["--fail"], "Unknown option '--fail'"],
    [["--fail-on"], "Option '--fail-on <value>' argument missing"],
  ])("%j is refused: %s", (argv, message) => {
    const parsed = parseReviewArgs(argv);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.message).toContain(message);
  });

  it("the usage names every flag of the table", () => {
    for (const name of Object.keys(REVIEW_FLAGS)) expect(USAGE).toContain(`--${name}`);
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
