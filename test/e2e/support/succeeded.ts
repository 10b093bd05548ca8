/**
 * The check that a stack operation succeeded, failing with what the CLI
 * printed: the error and the end of the engine's output. A bare
 * `expect(result.ok).toBe(true)` fails with "expected false to be true",
 * which leaves a failure seen only on CI without its cause.
 */
import { expect } from "vitest";
import type { OpResult } from "./stack";

/** The end of the engine's output a failure message carries. */
const ENGINE_OUTPUT_TAIL = 4_000;

/** Asserts that `result` succeeded. */
export function succeeded(result: Pick<OpResult, "ok" | "op" | "error" | "engineOutput">): void {
  expect(result.ok, `pulumi ${result.op} failed: ${result.error ?? "(no error text)"}\nthe engine's output ends:\n${result.engineOutput.slice(-ENGINE_OUTPUT_TAIL)}`).toBe(true);
}
