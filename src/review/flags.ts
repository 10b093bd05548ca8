/**
 * The command line of `agent-hosting-review`:
 *   agent-hosting-review [PREVIEW.json | -] [--fail-on OP,OP] [--help]
 * The flag table below is the one source of the bin's flags: the parser, the
 * usage text and the pipeline example's test all read it.
 */
import { parseArgs } from "node:util";

/** Operations `--fail-on` accepts. */
export const FAIL_ON_OPERATIONS = ["create", "update", "replace", "delete"] as const;
export type FailOnOperation = (typeof FAIL_ON_OPERATIONS)[number];

/** Exit codes of the bin. */
export const EXIT = { ok: 0, badInput: 1, usage: 2, failOn: 3 } as const;

export interface FlagSpec {
  type: "string" | "boolean";
  /** Placeholder of the flag's value in the usage text. */
  value?: string;
  description: string;
}

export const REVIEW_FLAGS = {
  "fail-on": {
    type: "string",
    value: "OPS",
    description: `exit ${EXIT.failOn} after printing the summary when an Agent is planned for one of OPS (comma-separated: ${FAIL_ON_OPERATIONS.join(", ")})`,
  },
  help: { type: "boolean", description: "print this usage and exit 0" },
} as const satisfies Record<string, FlagSpec>;

const FLAG_ENTRIES: [string, FlagSpec][] = Object.entries(REVIEW_FLAGS);

export const USAGE = [
  `usage: agent-hosting-review [PREVIEW.json | -] ${FLAG_ENTRIES.map(([name, spec]) => `[--${name}${spec.value ? ` ${spec.value}` : ""}]`).join(" ")}`,
  "  Reads `pulumi preview --json` from the file (or stdin when no file or `-` is given)",
  "  and writes a Markdown summary of the Agents for a pull-request comment.",
  ...FLAG_ENTRIES.map(([name, spec]) => `  --${name}${spec.value ? ` ${spec.value}` : ""}  ${spec.description}`),
].join("\n");

export interface ReviewOptions {
  /** The preview file, or undefined for stdin. */
  file?: string;
  failOn: FailOnOperation[];
  help: boolean;
}

export type ParsedReviewArgs = { ok: true; options: ReviewOptions } | { ok: false; message: string };

function isFailOnOperation(value: string): value is FailOnOperation {
  return (FAIL_ON_OPERATIONS as readonly string[]).includes(value);
}

/** Parses the bin's arguments; never throws, never exits. */
export function parseReviewArgs(argv: readonly string[]): ParsedReviewArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: REVIEW_FLAGS });
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) {
    return { ok: false, message: `expected at most one preview file, got ${positionals.length}: ${positionals.join(" ")}` };
  }
  const failOn: FailOnOperation[] = [];
  if (values["fail-on"] !== undefined) {
    for (const item of values["fail-on"].split(",").map((s) => s.trim())) {
      if (!isFailOnOperation(item)) {
        return {
          ok: false,
          message: `--fail-on takes a comma-separated list of ${FAIL_ON_OPERATIONS.join(", ")}; "${item}" is not one`,
        };
      }
      if (!failOn.includes(item)) failOn.push(item);
    }
  }
  const options: ReviewOptions = { failOn, help: values.help === true };
  const file = positionals[0];
  if (file !== undefined && file !== "-") options.file = file;
  return { ok: true, options };
}
