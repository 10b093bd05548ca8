import { describe, expect, it } from "vitest";
import { checkAgent } from "../../src/resources/agent/preview-verbs";
import { marksOf } from "../../src/core/state-marks";
import { UNKNOWN_VALUE } from "../../src/core/engine-sentinels";

/** check as a host calls it: the secret inputs the properties list are a typed field of the request. */
const checkAgentInputs = (olds: Record<string, unknown>, news: Record<string, unknown>) =>
  checkAgent({ urn: "", olds, news, secretInputs: marksOf(news).secretInputs });
import { IMAGE } from "../support/fixtures";

const valid = { serviceName: "voice-bot", image: IMAGE };

function failuresOf(news: Record<string, unknown>) {
  return checkAgentInputs({}, news).failures;
}

describe("check: one rule at a time", () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["missing serviceName", { image: valid.image }, "serviceName", /required/],
    ["missing image", { serviceName: "a" }, "image", /required/],
    ["uppercase serviceName", { ...valid, serviceName: "Voice" }, "serviceName", /lowercase/],
    ["serviceName starting with a hyphen", { ...valid, serviceName: "-bot" }, "serviceName", /must match/],
    ["serviceName ending with a hyphen", { ...valid, serviceName: "bot-" }, "serviceName", /must match/],
    ["serviceName with a dot", { ...valid, serviceName: "voice.bot" }, "serviceName", /must match/],
    ["serviceName with a slash", { ...valid, serviceName: "../etc" }, "serviceName", /must match/],
    ["serviceName too long", { ...valid, serviceName: "a".repeat(55) }, "serviceName", /1 to 54/],
    ["empty serviceName", { ...valid, serviceName: "" }, "serviceName", /1 to 54/],
    ["serviceName not a string", { ...valid, serviceName: 42 }, "serviceName", /string/],
    ["image without a tag", { ...valid, image: "registry.example.com/voice-bot" }, "image", /tag/],
    ["image with a registry port but no tag", { ...valid, image: "registry:5000/bot" }, "image", /tag/],
    ["image with whitespace", { ...valid, image: "voice bot:1" }, "image", /whitespace/],
    ["empty image", { ...valid, image: "" }, "image", /empty/],
    ["bad digest", { ...valid, image: "bot@sha256:xyz" }, "image", /digest/],
    ["nodeType other than arm", { ...valid, nodeType: "x86" }, "nodeType", /arm/],
    ["secretSet too short", { ...valid, secretSet: "ab" }, "secretSet", /3 to 63/],
    ["secretSet too long", { ...valid, secretSet: "a".repeat(64) }, "secretSet", /3 to 63/],
    ["secretSet uppercase", { ...valid, secretSet: "My-Set" }, "secretSet", /DNS subdomain/],
    ["imagePullSecretSet with underscore", { ...valid, imagePullSecretSet: "pull_set" }, "imagePullSecretSet", /DNS subdomain/],
    ["minAgents negative", { ...valid, autoScaling: { minAgents: -1, maxAgents: 2 } }, "autoScaling.minAgents", /≥ 0/],
    ["maxAgents zero", { ...valid, autoScaling: { minAgents: 0, maxAgents: 0 } }, "autoScaling.maxAgents", /≥ 1/],
    ["minAgents above maxAgents", { ...valid, autoScaling: { minAgents: 3, maxAgents: 2 } }, "autoScaling.minAgents", /≤ maxAgents/],
    ["fractional maxAgents", { ...valid, autoScaling: { minAgents: 0, maxAgents: 1.5 } }, "autoScaling.maxAgents", /integer/],
    ["autoScaling with an unknown key", { ...valid, autoScaling: { minAgents: 0, maxAgents: 1, max: 3 } }, "autoScaling", /max/],
    ["enableNoise not a boolean", { ...valid, enableNoise: "yes" }, "enableNoise", /boolean/],
    ["waitForReady not a boolean", { ...valid, waitForReady: 1 }, "waitForReady", /boolean/],
    ["readyTimeoutSeconds zero", { ...valid, readyTimeoutSeconds: 0 }, "readyTimeoutSeconds", /1 and 3600/],
    ["readyTimeoutSeconds too large", { ...valid, readyTimeoutSeconds: 3601 }, "readyTimeoutSeconds", /1 and 3600/],
    ["an unknown field", { ...valid, region: "eu" }, "region", /not a known field/],
    ["requiredSecrets without secretSet", { ...valid, requiredSecrets: ["TOKEN"] }, "requiredSecrets", /^needs secretSet: the set whose fields it names$/],
    ["requiredSecrets not a list", { ...valid, secretSet: "bot-secrets", requiredSecrets: "TOKEN" }, "requiredSecrets", /^must be a list of field names of secretSet$/],
    ["requiredSecrets with an empty name", { ...valid, secretSet: "bot-secrets", requiredSecrets: ["TOKEN", " "] }, "requiredSecrets[1]", /^must be a non-empty field name$/],
    ["requiredSecrets with a duplicate", { ...valid, secretSet: "bot-secrets", requiredSecrets: ["TOKEN", "TOKEN"] }, "requiredSecrets[1]", /^duplicate of "TOKEN"$/],
    ["drainSeconds negative", { ...valid, drainSeconds: -1 }, "drainSeconds", /^must be an integer from 0 to 14400$/],
    ["drainSeconds fractional", { ...valid, drainSeconds: 1.5 }, "drainSeconds", /^must be an integer from 0 to 14400$/],
    ["drainSeconds too large", { ...valid, drainSeconds: 14401 }, "drainSeconds", /^must be an integer from 0 to 14400$/],
  ];
  it.each(cases)("%s", (_label, news, property, reason) => {
    const failures = failuresOf(news);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.property).toBe(property);
    expect(failures[0]?.reason).toMatch(reason);
  });
});

describe("check: requiredSecrets and drainSeconds", () => {
  it("accepts distinct names with secretSet, unknown items, and drainSeconds from 0 to 14400", () => {
    expect(failuresOf({ ...valid, secretSet: "bot-secrets", requiredSecrets: ["TOKEN", UNKNOWN_VALUE, "DB_URL"], drainSeconds: 14400 })).toEqual([]);
    expect(failuresOf({ ...valid, secretSet: UNKNOWN_VALUE, requiredSecrets: ["TOKEN"], drainSeconds: 0 })).toEqual([]);
  });

  it("hides a secret requiredSecrets' value behind its name", () => {
    const news = { ...valid, secretSet: "bot-secrets", requiredSecrets: ["A", "A"] };
    expect(checkAgent({ urn: "", olds: {}, news, secretInputs: ["requiredSecrets"] }).failures).toEqual([
      { property: "", reason: 'requiredSecrets[1] (a secret): duplicate of "A"' },
    ]);
  });
});

describe("check", () => {
  it("accepts valid inputs and applies the defaults", () => {
    const outcome = checkAgentInputs({}, { ...valid, __provider: "serialized" });
    expect(outcome.failures).toEqual([]);
    expect(outcome.inputs).toEqual({
      ...valid,
      nodeType: "arm",
      enableNoise: false,
      waitForReady: true,
      readyTimeoutSeconds: 600,
      onFailure: "keep",
      drainSeconds: 0,
      name: valid.serviceName,
      __provider: "serialized",
    });
  });

  it("accepts digests, registry ports and every optional field", () => {
    const digest = `registry:5000/team/bot@sha256:${"a".repeat(64)}`;
    const outcome = checkAgentInputs({}, {
      serviceName: "a",
      image: digest,
      nodeType: "arm",
      secretSet: "voice.bot-secrets",
      imagePullSecretSet: "pull",
      autoScaling: { minAgents: 0, maxAgents: 1 },
      enableNoise: true,
      waitForReady: false,
      readyTimeoutSeconds: 3600,
    });
    expect(outcome.failures).toEqual([]);
    expect(outcome.inputs["enableNoise"]).toBe(true);
  });

  it("reports every bad field at once", () => {
    const failures = failuresOf({
      serviceName: "Bad_Name",
      image: "no-tag",
      nodeType: "x86",
      secretSet: "x",
      autoScaling: { minAgents: 5, maxAgents: 2 },
      readyTimeoutSeconds: 0,
    });
    expect(failures.map((f) => f.property).sort()).toEqual(
      ["autoScaling.minAgents", "image", "nodeType", "readyTimeoutSeconds", "secretSet", "serviceName"].sort(),
    );
  });

  it("lets unknown values of a preview pass", () => {
    const outcome = checkAgentInputs({}, {
      serviceName: UNKNOWN_VALUE,
      image: UNKNOWN_VALUE,
      secretSet: UNKNOWN_VALUE,
      autoScaling: UNKNOWN_VALUE,
      enableNoise: UNKNOWN_VALUE,
    });
    expect(outcome.failures).toEqual([]);
  });

  it("checks the known half of a partly unknown autoScaling", () => {
    expect(failuresOf({ ...valid, autoScaling: { minAgents: UNKNOWN_VALUE, maxAgents: 3 } })).toEqual([]);
    const failures = failuresOf({ ...valid, autoScaling: { minAgents: -2, maxAgents: UNKNOWN_VALUE } });
    expect(failures.map((f) => f.property)).toEqual(["autoScaling.minAgents"]);
  });
});

describe("check: a secret input that breaks a rule", () => {
  it("names the field in the reason, so the engine never prints the value beside it", () => {
    const outcome = checkAgentInputs({}, { ...valid, image: "secret image with spaces", enableNoise: "x", __secretInputs: ["image"] });
    expect(outcome.failures).toEqual([
      { property: "", reason: "image (a secret): must not contain whitespace" },
      { property: "enableNoise", reason: "must be a boolean" },
    ]);
  });
});
