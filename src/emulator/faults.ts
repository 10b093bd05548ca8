/**
 * Injected faults for the next N matching /v1 requests: an error status, a
 * delay, or a dropped connection (before acting, or after acting and
 * persisting but without answering).
 */
export type FaultKind = "status" | "delay" | "drop-before" | "drop-after";

export interface FaultSpec {
  /** An HTTP method, or "*" for any. */
  method: string;
  /** An exact path ("/v1/agents") or a prefix ending in "*" ("/v1/agents/*"). */
  path: string;
  kind: FaultKind;
  /** For kind "status": the status to answer (≥ 400). */
  status?: number;
  /** For kind "status": the error code (default from the status, e.g. 503 → INTERNAL_SERVER_ERROR). */
  code?: string;
  /** For kind "delay": milliseconds to wait before handling the request normally. */
  delayMs?: number;
  /** How many matching requests it applies to (default 1). */
  count?: number;
}

interface ArmedFault extends FaultSpec {
  remaining: number;
}

const KINDS: readonly FaultKind[] = ["status", "delay", "drop-before", "drop-after"];

const CODES: Record<number, string> = {
  400: "GENERIC_BAD_REQUEST",
  401: "UNAUTHORIZED",
  404: "NOT_FOUND",
  409: "CONFLICT",
  429: "RATE_LIMITED",
};

/** The error code a status fault answers with when none is given. */
export function defaultCode(status: number): string {
  return CODES[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "GENERIC_BAD_REQUEST");
}

export function faultProblem(spec: Partial<FaultSpec>): string | undefined {
  if (typeof spec.method !== "string" || spec.method === "" || typeof spec.path !== "string" || spec.path === "") {
    return "method and path are required non-empty strings";
  }
  if (!KINDS.includes(spec.kind as FaultKind)) return `kind must be one of ${KINDS.join(", ")}`;
  if (spec.kind === "status" && !(Number.isInteger(spec.status) && (spec.status as number) >= 400 && (spec.status as number) <= 599)) {
    return "a status fault needs status from 400 to 599";
  }
  if (spec.code !== undefined && typeof spec.code !== "string") return "code must be a string";
  if (spec.kind === "delay" && !(typeof spec.delayMs === "number" && spec.delayMs >= 0)) return "a delay fault needs delayMs ≥ 0";
  if (spec.count !== undefined && !(Number.isInteger(spec.count) && spec.count >= 1)) return "count must be an integer ≥ 1";
  return undefined;
}

/** Whether `spec` is a complete fault: faultProblem finds nothing wrong with it. */
export const isFaultSpec = (spec: Partial<FaultSpec>): spec is FaultSpec => faultProblem(spec) === undefined;

export class Faults {
  private armed: ArmedFault[] = [];
  fired = 0;

  add(spec: FaultSpec): void {
    const fault: ArmedFault = { method: spec.method.toUpperCase(), path: spec.path, kind: spec.kind, remaining: spec.count ?? 1 };
    if (spec.status !== undefined) fault.status = spec.status;
    if (spec.code !== undefined) fault.code = spec.code;
    if (spec.delayMs !== undefined) fault.delayMs = spec.delayMs;
    this.armed.push(fault);
  }

  clear(): void {
    this.armed = [];
  }

  /** The first armed fault matching the request, consumed. */
  take(method: string, path: string): FaultSpec | undefined {
    const index = this.armed.findIndex(
      (f) =>
        f.remaining > 0 &&
        (f.method === "*" || f.method === method) &&
        (f.path.endsWith("*") ? path.startsWith(f.path.slice(0, -1)) : f.path === path),
    );
    if (index < 0) return undefined;
    const fault = this.armed[index] as ArmedFault;
    fault.remaining--;
    if (fault.remaining === 0) this.armed.splice(index, 1);
    this.fired++;
    return fault;
  }
}
