/**
 * `diff`: inputs only. `serviceName` replaces; any other input updates in
 * place; outputs such as `activeSessionCount` or `ready` never cause a diff.
 *
 * `olds` are the resource's outputs, which hold every input (defaults
 * applied) and, for scaling, the live `{ minReplicas, maxReplicas }`.
 */
import { INPUT_DEFAULTS, PROVIDER_SETTINGS, UNKNOWN_VALUE } from "./types";

export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  changed: string[];
  deleteBeforeReplace: boolean;
}

const PLAIN_FIELDS = ["image", "nodeType", "imagePullSecretSet", "secretSet", "enableNoise", ...PROVIDER_SETTINGS] as const;

function withDefault(field: string, value: unknown): unknown {
  if (value !== undefined && value !== null) return value;
  return (INPUT_DEFAULTS as Record<string, unknown>)[field];
}

function scalingDiffers(old: unknown, next: unknown): boolean {
  if (next === undefined || next === null) return false; // not declared: the service's default is kept
  if (next === UNKNOWN_VALUE) return true;
  const n = next as Record<string, unknown>;
  const o = (old ?? {}) as Record<string, unknown>;
  const oldMin = o["minAgents"] ?? o["minReplicas"];
  const oldMax = o["maxAgents"] ?? o["maxReplicas"];
  return n["minAgents"] !== oldMin || n["maxAgents"] !== oldMax;
}

export function diffAgent(olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  const changed: string[] = [];
  const replaces: string[] = [];
  if (olds["serviceName"] !== news["serviceName"]) {
    changed.push("serviceName");
    replaces.push("serviceName");
  }
  for (const field of PLAIN_FIELDS) {
    if (withDefault(field, olds[field]) !== withDefault(field, news[field])) changed.push(field);
  }
  if (scalingDiffers(olds["autoScaling"], news["autoScaling"])) changed.push("autoScaling");
  return { changes: changed.length > 0, replaces, changed, deleteBeforeReplace: false };
}
