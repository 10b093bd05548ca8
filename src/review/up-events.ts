/**
 * What `pulumi up --json` applied, from what it prints (engine v3.259): the
 * preview's digest, then one engine event per line. The Agents come from the
 * events: `resOutputsEvent` (a step done, with the new outputs: the
 * deployment id), `resOpFailedEvent` and error `diagnosticEvent`s (a step
 * failed, with its message), `summaryEvent` (the counts).
 */
import { agentProviderKind } from "./agent-types";
import type { AgentProviderKind } from "./agent-types";
import { jsonDocuments } from "./json-documents";
import { PreviewFormatError } from "./preview";
import type { PreviewState } from "./preview";
import { parseUrn } from "./urn";

export interface AppliedAgent {
  urn: string;
  resource: string;
  provider: AgentProviderKind;
  op: string;
  deploymentBefore?: string;
  deploymentAfter?: string;
  /** The engine's error messages for this Agent, when its step failed. */
  errors: string[];
}

export interface UpResult {
  project?: string;
  stack?: string;
  agents: AppliedAgent[];
  /** Error messages not tied to one resource. */
  errors: string[];
  changeSummary: Record<string, number>;
  failed: boolean;
}

interface StepMetadata {
  op?: string;
  urn?: string;
  type?: string;
  old?: PreviewState | null;
  new?: PreviewState | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function metadataOf(event: Record<string, unknown>, key: string): StepMetadata | undefined {
  const payload = event[key];
  if (!isRecord(payload) || !isRecord(payload["metadata"])) return undefined;
  return payload["metadata"] as StepMetadata;
}

function deploymentId(state: PreviewState | null | undefined): string | undefined {
  const id = state?.outputs?.["activeDeploymentId"];
  return typeof id === "string" ? id : undefined;
}

/** Parses the text of `pulumi up --json`; throws PreviewFormatError when it holds no engine events. */
export function parseUpOutput(text: string): UpResult {
  let documents: unknown[];
  try {
    if (text.trim() === "") throw new SyntaxError("empty");
    documents = jsonDocuments(text);
  } catch (error) {
    const hint = text.trim() === "" ? "the input is empty" : (error as Error).message;
    throw new PreviewFormatError(`the input is not JSON (${hint}); expected the output of \`pulumi up --json\``);
  }
  const events = documents.filter(isRecord).filter((d) => typeof d["sequence"] === "number");
  if (events.length === 0) {
    throw new PreviewFormatError("the input holds no engine events (objects with a `sequence`); expected the output of `pulumi up --json`");
  }
  const agents = new Map<string, AppliedAgent>();
  const errors: string[] = [];
  let changeSummary: Record<string, number> = {};
  let failed = false;
  let first: ReturnType<typeof parseUrn>;
  const agentFor = (metadata: StepMetadata): AppliedAgent | undefined => {
    if (!metadata.urn || metadata.op === "refresh") return undefined;
    const state = metadata.new ?? metadata.old ?? undefined;
    const provider = agentProviderKind(metadata.type ?? state?.type, [state]);
    if (!provider) return undefined;
    const agent = agents.get(metadata.urn) ?? { urn: metadata.urn, resource: parseUrn(metadata.urn)?.name ?? metadata.urn, provider, op: metadata.op ?? "other", errors: [] };
    agents.set(metadata.urn, agent);
    return agent;
  };
  for (const event of events) {
    const pre = metadataOf(event, "resourcePreEvent");
    if (pre?.urn) first ??= parseUrn(pre.urn);
    if (pre) agentFor(pre);
    const done = metadataOf(event, "resOutputsEvent");
    if (done) {
      const agent = agentFor(done);
      if (agent) {
        agent.op = done.op ?? agent.op;
        const before = deploymentId(done.old);
        const after = deploymentId(done.new);
        if (before) agent.deploymentBefore = before;
        if (after) agent.deploymentAfter = after;
      }
    }
    const failedStep = metadataOf(event, "resOpFailedEvent");
    if (failedStep) {
      failed = true;
      agentFor(failedStep);
    }
    const diagnostic = event["diagnosticEvent"];
    if (isRecord(diagnostic) && diagnostic["severity"] === "error" && typeof diagnostic["message"] === "string") {
      failed = true;
      const message = `${typeof diagnostic["prefix"] === "string" ? diagnostic["prefix"] : ""}${diagnostic["message"]}`.trimEnd();
      const urn = typeof diagnostic["urn"] === "string" ? diagnostic["urn"] : undefined;
      const agent = urn ? agents.get(urn) : undefined;
      if (agent) agent.errors.push(message);
      else errors.push(message);
    }
    const summary = event["summaryEvent"];
    if (isRecord(summary) && isRecord(summary["resourceChanges"])) {
      changeSummary = Object.fromEntries(Object.entries(summary["resourceChanges"]).filter((entry): entry is [string, number] => typeof entry[1] === "number"));
    }
  }
  // By name: the engine's order varies from run to run, and one comment is updated on every run.
  const shown = [...agents.values()].filter((a) => a.op !== "same" || a.errors.length > 0).sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  const result: UpResult = { agents: shown, errors, changeSummary, failed };
  if (first) {
    result.project = first.project;
    result.stack = first.stack;
  }
  return result;
}
