/**
 * The review's warning for a change that lowers the safety net of an
 * Agent's rollouts: `onFailure` turned from "rollback" to anything else (a
 * failed deployment then stays in place), or `healthCheck` removed (new
 * deployments' logs are then no longer read).
 */
import type { AgentChange, PropertyChange } from "./agent-changes";
import { formatValue, inlineCode } from "./markdown-text";

const isRollback = (change: PropertyChange["before"]) => change.kind === "value" && change.value === "rollback";

/** What the change turns off, one line each. */
function lowered(agent: AgentChange): string[] {
  if (agent.operation !== "update" && agent.operation !== "replace") return [];
  const lines: string[] = [];
  for (const { name, before, after } of agent.properties) {
    if (name === "onFailure" && isRollback(before) && !isRollback(after) && after.kind !== "unknown") {
      lines.push(`${inlineCode("onFailure")} ${formatValue(before)} → ${formatValue(after)}: a deployment that fails is no longer rolled back`);
    }
    if (name === "healthCheck" && before.kind !== "unset" && after.kind === "unset") {
      lines.push(`${inlineCode("healthCheck")} removed: the logs of new deployments are no longer checked`);
    }
  }
  return lines;
}

/** A warning block, or none when the change keeps rollback and health checks as they were. */
export function safetyNetWarning(agent: AgentChange): string[] {
  const lines = lowered(agent);
  if (lines.length === 0) return [];
  return ["> [!WARNING]", `> **Safety net lowered** for ${inlineCode(agent.resource)}:`, ...lines.map((line) => `> - ${line}`)];
}
