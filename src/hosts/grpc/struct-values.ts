/**
 * Translating between the engine's protobuf Structs and the plain objects the
 * provider implementation works with.
 *
 * The engine marks a secret as `{ [SIGNATURE_KEY]: SECRET_SIGNATURE, value }`
 * (src/core/engine-sentinels.ts) and sends a value it does not
 * know yet (during preview) as the unknown sentinel string. The
 * implementation expects secrets unwrapped and unknowns as that sentinel, so
 * `fromStruct` unwraps secrets and remembers which top-level properties held
 * one; `toStruct` marks the same properties secret again on the way out.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { SECRET_SIGNATURE, SIGNATURE_KEY, UNKNOWN_VALUE, asSecret } from "../../core/engine-sentinels";

export type Props = Record<string, unknown>;

export interface Unwrapped {
  props: Props;
  /** Top-level property names whose value held a secret anywhere inside. */
  secrets: Set<string>;
}

function isSecret(value: unknown): value is { value?: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SIGNATURE_KEY] === SECRET_SIGNATURE;
}

/**
 * The value with every secret replaced by what it holds, in place: `value`
 * is fresh from Struct.toJavaScript, so nothing else holds it, and a check
 * or diff of many resources copies none of it.
 */
function unwrap(value: unknown, found: { secret: boolean }): unknown {
  if (isSecret(value)) {
    found.secret = true;
    return unwrap(value.value, found);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unwrap(value[i], found);
    return value;
  }
  if (typeof value === "object" && value !== null) {
    const record = value as Props;
    for (const key of Object.keys(record)) record[key] = unwrap(record[key], found);
    return record;
  }
  return value;
}

export function fromStruct(struct: Struct | undefined): Unwrapped {
  const props = (struct?.toJavaScript() ?? {}) as Props;
  const secrets = new Set<string>();
  for (const key of Object.keys(props)) {
    const found = { secret: false };
    props[key] = unwrap(props[key], found);
    if (found.secret) secrets.add(key);
  }
  return { props, secrets };
}

/** Drops undefined values (a Struct cannot hold them) and turns Dates into strings. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && value !== null) {
    const out: Props = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = plain(v);
    return out;
  }
  return value;
}

export function toStruct(props: Props, secrets: ReadonlySet<string> = new Set()): Struct {
  const out: Props = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    const wrap = secrets.has(key) && value !== UNKNOWN_VALUE && !isSecret(value);
    out[key] = wrap ? asSecret(plain(value)) : plain(value);
  }
  return Struct.fromJavaScript(out as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** True when the value, or anything inside it, is not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN_VALUE) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}
