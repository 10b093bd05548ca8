/** Injected faults: a status, a delay, or a dropped connection for the next N matching requests. */
export type FaultKind = "status" | "delay" | "drop-before" | "drop-after";

export interface FaultSpec {
  method: string;
  /** An exact path ("/v1/agents") or a prefix ending in "*". */
  path: string;
  kind: FaultKind;
  status?: number;
  code?: string;
  delayMs?: number;
  count?: number;
}

interface ArmedFault extends FaultSpec {
  remaining: number;
}

const KINDS: readonly FaultKind[] = ["status", "delay", "drop-before", "drop-after"];

export function faultProblem(spec: Partial<FaultSpec>): string | undefined {
  if (typeof spec.method !== "string" || typeof spec.path !== "string") return "method and path are required strings";
  if (!KINDS.includes(spec.kind as FaultKind)) return `kind must be one of ${KINDS.join(", ")}`;
  if (spec.kind === "status" && !(Number.isInteger(spec.status) && (spec.status as number) >= 400)) {
    return "a status fault needs status ≥ 400";
  }
  if (spec.kind === "delay" && !(typeof spec.delayMs === "number" && spec.delayMs >= 0)) return "a delay fault needs delayMs ≥ 0";
  return undefined;
}

export class Faults {
  private armed: ArmedFault[] = [];
  fired = 0;

  add(spec: FaultSpec): void {
    this.armed.push({ ...spec, method: spec.method.toUpperCase(), remaining: spec.count ?? 1 });
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
