/**
 * The whole preview as plain text, every resource and not only the Agents,
 * for the comment's collapsible block: each step's operation, type and name
 * with its changed inputs, then the engine's messages and the counts. Secrets
 * show as "[secret]"; the dynamic provider's reserved `__` inputs never show.
 */
import type { PreviewDigest, PreviewStep } from "./preview";
import { propertyValue, sameValue } from "./property-value";
import type { PropertyValue } from "./property-value";
import { maskSecretsInText, MASKED, secretPropertyNames } from "./secrets";
import { parseUrn } from "./urn";

const SYMBOLS: Record<string, string> = {
  create: "+",
  update: "~",
  delete: "-",
  replace: "+-",
  "create-replacement": "++",
  "delete-replaced": "--",
  same: " ",
  read: ">",
  refresh: "~",
  import: "=",
};
const MAX_VALUE_LENGTH = 300;

function valueText(value: PropertyValue): string {
  switch (value.kind) {
    case "unset":
      return "(not set)";
    case "unknown":
      return "(known after apply)";
    case "secret":
      return MASKED;
    case "value": {
      const text = JSON.stringify(value.value) ?? "";
      return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
    }
  }
}

function stepLines(step: PreviewStep): string[] {
  const urn = parseUrn(step.urn);
  const lines = [`${(SYMBOLS[step.op] ?? "*").padEnd(2)} ${step.op.padEnd(18)} ${urn ? `${urn.type}  ${urn.name}` : step.urn}`];
  const secret = secretPropertyNames([step.oldState, step.newState], ["inputs"]);
  const names = [...new Set([...Object.keys(step.oldState?.inputs ?? {}), ...Object.keys(step.newState?.inputs ?? {})])]
    .filter((name) => !name.startsWith("__"))
    .sort();
  for (const name of names) {
    const before = propertyValue(step.oldState?.inputs?.[name], secret.has(name));
    const after = propertyValue(step.newState?.inputs?.[name], secret.has(name));
    if (step.op === "create" || step.op === "create-replacement") {
      if (after.kind !== "unset") lines.push(`       ${name}: ${valueText(after)}`);
    } else if (step.op === "delete" || step.op === "delete-replaced") {
      if (before.kind !== "unset") lines.push(`       ${name}: ${valueText(before)}`);
    } else if (!sameValue(before, after)) {
      lines.push(`       ${name}: ${valueText(before)} => ${valueText(after)}`);
    }
  }
  return lines;
}

export function previewText(digest: PreviewDigest): string {
  const lines = digest.steps.flatMap(stepLines);
  const messages = digest.diagnostics.filter((d) => d.message && d.severity !== "debug");
  if (messages.length > 0) {
    lines.push("", "Diagnostics:");
    for (const d of messages) {
      const where = d.urn ? `${parseUrn(d.urn)?.name ?? d.urn}: ` : "";
      lines.push(`  ${where}${maskSecretsInText(d.message ?? "").trimEnd()}`);
    }
  }
  const counts = Object.entries(digest.changeSummary).map(([op, n]) => `${n} ${op}`);
  lines.push("", `Resources: ${counts.length > 0 ? counts.join(", ") : "none"}`);
  return lines.join("\n");
}
