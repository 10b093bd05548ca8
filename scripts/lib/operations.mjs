// @ts-check
// What the engine did to each Agent in a preview and in the update after it,
// from the engine's events, and where the two disagree. `pulumi up` previews
// first and asks the user to confirm what the preview showed: an update that
// does something else to an agent is a defect of the provider.

/**
 * @typedef {Record<string, string[]>} AgentOperations
 * @typedef {{ urn: string, preview: string[], update: string[] }} Disagreement
 */

/** Whether a resource type is an Agent's (the dynamic provider's or the native plugin's). */
export const isAgentType = (/** @type {unknown} */ type) => typeof type === "string" && /(^|[:/])Agent$/.test(type);

/**
 * Collects `{ [urn]: op[] }` for Agents from engine events. `event` is an
 * engine event as the Automation APIs hand it out, in camelCase
 * (`resourcePreEvent.metadata`) or snake_case (`resource_pre_event`).
 * @returns {{ ops: AgentOperations, onEvent(event: unknown): void }}
 */
export function agentOperationRecorder() {
  /** @type {AgentOperations} */
  const ops = {};
  return {
    ops,
    /** @param {any} event */
    onEvent(event) {
      const pre = event?.resourcePreEvent ?? event?.resource_pre_event;
      const meta = pre?.metadata;
      if (!meta || !isAgentType(meta.type)) return;
      (ops[meta.urn] ??= []).push(meta.op);
    },
  };
}

/**
 * The Agents whose operations differ: for each agent the update reached, its
 * operations must begin the preview's; when the update succeeded, every
 * agent's operations must be the preview's exactly.
 * @param {AgentOperations} previewed
 * @param {AgentOperations} applied
 * @param {boolean} updateSucceeded
 * @returns {Disagreement[]}
 */
export function operationDisagreements(previewed, applied, updateSucceeded) {
  /** @type {Disagreement[]} */
  const found = [];
  const urns = new Set([...Object.keys(applied), ...(updateSucceeded ? Object.keys(previewed) : [])]);
  for (const urn of urns) {
    const planned = previewed[urn] ?? [];
    const done = applied[urn] ?? [];
    const agrees = updateSucceeded
      ? planned.length === done.length && done.every((op, i) => op === planned[i])
      : done.every((op, i) => op === planned[i]);
    if (!agrees) found.push({ urn, preview: planned, update: done });
  }
  return found;
}

/** One message naming every disagreement, or undefined. @param {Disagreement[]} disagreements @returns {string | undefined} */
export function disagreementMessage(disagreements) {
  if (disagreements.length === 0) return undefined;
  const lines = disagreements.map((d) => `${d.urn}: preview ${JSON.stringify(d.preview)}, update ${JSON.stringify(d.update)}`);
  return `the preview and the update disagree about these agents' operations:\n${lines.join("\n")}`;
}
