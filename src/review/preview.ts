/**
 * The document `pulumi preview --json` prints (the engine's preview digest),
 * reduced to the parts the review reads, with a check of its shape.
 */

/** A resource's state as the digest serializes it. */
export interface PreviewState {
  urn?: string;
  type?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  additionalSecretOutputs?: string[];
}

export interface PropertyDiff {
  kind: string;
  inputDiff?: boolean;
}

export interface PreviewStep {
  op: string;
  urn: string;
  oldState?: PreviewState;
  newState?: PreviewState;
  diffReasons?: string[];
  replaceReasons?: string[];
  detailedDiff?: Record<string, PropertyDiff> | null;
}

export interface PreviewDiagnostic {
  urn?: string;
  message?: string;
  severity?: string;
}

export interface PreviewDigest {
  steps: PreviewStep[];
  diagnostics: PreviewDiagnostic[];
  changeSummary: Record<string, number>;
}

/** The input is not a preview digest; the message names the field and what was expected. */
export class PreviewFormatError extends Error {
  override readonly name = "PreviewFormatError";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalRecord(value: unknown, field: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new PreviewFormatError(`${field} must be an object`);
  return value;
}

function optionalStrings(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new PreviewFormatError(`${field} must be a list of strings`);
  }
  return value as string[];
}

/** Sets an optional member only when it was there (exactOptionalPropertyTypes: never an explicit undefined). */
function setIfPresent<T, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

function parseState(value: unknown, field: string): PreviewState | undefined {
  const record = optionalRecord(value, field);
  if (!record) return undefined;
  const state: PreviewState = {};
  if (typeof record["urn"] === "string") state.urn = record["urn"];
  if (typeof record["type"] === "string") state.type = record["type"];
  setIfPresent(state, "inputs", optionalRecord(record["inputs"], `${field}.inputs`));
  setIfPresent(state, "outputs", optionalRecord(record["outputs"], `${field}.outputs`));
  setIfPresent(state, "additionalSecretOutputs", optionalStrings(record["additionalSecretOutputs"], `${field}.additionalSecretOutputs`));
  return state;
}

function parseStep(value: unknown, index: number): PreviewStep {
  const field = `steps[${index}]`;
  if (!isRecord(value)) throw new PreviewFormatError(`${field} must be an object`);
  const { op, urn } = value;
  if (typeof op !== "string") throw new PreviewFormatError(`${field}.op must be a string`);
  if (typeof urn !== "string" || !urn.startsWith("urn:pulumi:")) {
    throw new PreviewFormatError(`${field}.urn must be a Pulumi URN (urn:pulumi:...)`);
  }
  const step: PreviewStep = { op, urn };
  setIfPresent(step, "oldState", parseState(value["oldState"], `${field}.oldState`));
  setIfPresent(step, "newState", parseState(value["newState"], `${field}.newState`));
  setIfPresent(step, "diffReasons", optionalStrings(value["diffReasons"], `${field}.diffReasons`));
  setIfPresent(step, "replaceReasons", optionalStrings(value["replaceReasons"], `${field}.replaceReasons`));
  const detailed = optionalRecord(value["detailedDiff"], `${field}.detailedDiff`);
  if (detailed) {
    const detailedDiff: Record<string, PropertyDiff> = {};
    for (const [path, diff] of Object.entries(detailed)) {
      if (!isRecord(diff) || typeof diff["kind"] !== "string") {
        throw new PreviewFormatError(`${field}.detailedDiff["${path}"].kind must be a string`);
      }
      detailedDiff[path] = { kind: diff["kind"], inputDiff: diff["inputDiff"] === true };
    }
    step.detailedDiff = detailedDiff;
  }
  return step;
}

/** Parses the text of `pulumi preview --json`; throws PreviewFormatError when it is not one. */
export function parsePreview(text: string): PreviewDigest {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const hint = text.trim() === "" ? "the input is empty" : (error as Error).message;
    throw new PreviewFormatError(`the input is not JSON (${hint}); expected the output of \`pulumi preview --json\``);
  }
  if (!isRecord(document)) throw new PreviewFormatError("the document must be a JSON object, the output of `pulumi preview --json`");
  const rawSteps = document["steps"] ?? [];
  if (!Array.isArray(rawSteps)) throw new PreviewFormatError("steps must be a list");
  const rawSummary = optionalRecord(document["changeSummary"], "changeSummary") ?? {};
  const changeSummary: Record<string, number> = {};
  for (const [op, count] of Object.entries(rawSummary)) {
    if (typeof count !== "number" || !Number.isInteger(count) || count < 0) {
      throw new PreviewFormatError(`changeSummary.${op} must be a count (an integer ≥ 0)`);
    }
    changeSummary[op] = count;
  }
  const rawDiagnostics = document["diagnostics"] ?? [];
  if (!Array.isArray(rawDiagnostics)) throw new PreviewFormatError("diagnostics must be a list");
  const diagnostics: PreviewDiagnostic[] = rawDiagnostics.filter(isRecord).map((d) => {
    const diagnostic: PreviewDiagnostic = {};
    if (typeof d["urn"] === "string") diagnostic.urn = d["urn"];
    if (typeof d["message"] === "string") diagnostic.message = d["message"];
    if (typeof d["severity"] === "string") diagnostic.severity = d["severity"];
    return diagnostic;
  });
  return { steps: rawSteps.map(parseStep), diagnostics, changeSummary };
}
