/** The error a mock raises where the preview (or the function's invoke) refuses its inputs: each failure as the provider words it. */
import type { RuleFailure } from "../client/field-rules";

export class MockRefusalError extends Error {
  override readonly name = "MockRefusalError";

  constructor(
    /** What was refused: `Agent "bot"`, `getSecretSet`. */
    readonly subject: string,
    readonly failures: readonly RuleFailure[],
  ) {
    super(`${subject}: the preview refuses its inputs:\n${failures.map((f) => `  ${f.property === "" ? "" : `${f.property}: `}${f.reason}`).join("\n")}`);
  }
}
