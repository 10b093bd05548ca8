/**
 * The command line of `agent-hosting-review`:
 *   agent-hosting-review [preview|drift|up] [FILE | -] [flags]
 * The tables below are the one source of the bin's commands and flags: the
 * parser, the usage text and the pipeline example's test all read them.
 */
import { parseArgs } from "node:util";

/** Operations `--fail-on` accepts: the planned operations of a preview, and `drift` for the drift report. */
export const FAIL_ON_OPERATIONS = ["create", "update", "replace", "delete"] as const;
export type FailOnOperation = (typeof FAIL_ON_OPERATIONS)[number];
export const FAIL_ON_DRIFT = "drift";
/** `--fail-on live-sessions`: a planned change cuts an Agent's live sessions (src/review/live-sessions.ts). */
export const FAIL_ON_LIVE_SESSIONS = "live-sessions";
/** What `--fail-on` accepts for a preview: its operations and `live-sessions`. */
export const FAIL_ON_PREVIEW = [...FAIL_ON_OPERATIONS, FAIL_ON_LIVE_SESSIONS] as const;
export type FailOn = (typeof FAIL_ON_PREVIEW)[number];

/** Exit codes of the bin. */
export const EXIT = { ok: 0, badInput: 1, usage: 2, failOn: 3 } as const;

export const REVIEW_COMMANDS = {
  preview: "the review of `pulumi preview --json` for a pull-request comment (the default)",
  drift: "what changed outside Pulumi, from `pulumi refresh --preview-only --json` or `pulumi preview --refresh --json`",
  up: "what `pulumi up --json` applied (deployment ids, failures), for the pull request's comment after the merge",
} as const;
export type ReviewCommand = keyof typeof REVIEW_COMMANDS;

export interface FlagSpec {
  type: "string" | "boolean";
  short?: string;
  /** Placeholder of the flag's value in the usage text. */
  value?: string;
  /** The default, as the usage text shows it. */
  defaultText?: string;
  description: string;
}

export const REVIEW_FLAGS = {
  "fail-on": {
    type: "string",
    value: "OPS",
    defaultText: "none",
    description:
      `exit ${EXIT.failOn} after printing when an Agent is planned for one of OPS (comma-separated: ${FAIL_ON_OPERATIONS.join(", ")}), ` +
      `or, with ${FAIL_ON_LIVE_SESSIONS}, when a planned change cuts an Agent's live sessions (a delete or replace of an agent whose outputs count ` +
      "sessions; an update that makes a new deployment on a service that switches at once); " +
      `with drift: \`--fail-on ${FAIL_ON_DRIFT}\` exits ${EXIT.failOn} when an Agent drifted`,
  },
  drift: { type: "boolean", defaultText: "off", description: "the same as the drift command" },
  "skip-no-changes": {
    type: "boolean",
    defaultText: "off",
    description: "print only the comment's marker line when nothing changes (no drift, for drift), so the pipeline posts nothing",
  },
  stack: { type: "string", value: "NAME", defaultText: "from the document", description: "the stack the comment and its marker name" },
  project: { type: "string", value: "NAME", defaultText: "from the document", description: "the project the comment and its marker name" },
  previous: {
    type: "string",
    value: "FILE",
    defaultText: "none",
    description: "with up: the comment posted for the preview, kept below what was applied",
  },
  help: { type: "boolean", short: "h", defaultText: "off", description: "print this usage and exit 0" },
  version: { type: "boolean", defaultText: "off", description: "print the version and exit 0" },
} as const satisfies Record<string, FlagSpec>;

const FLAG_ENTRIES: [string, FlagSpec][] = Object.entries(REVIEW_FLAGS);

function flagName(name: string, spec: FlagSpec): string {
  return `${spec.short ? `-${spec.short}, ` : ""}--${name}${spec.value ? ` ${spec.value}` : ""}`;
}

export const USAGE = [
  "usage: agent-hosting-review [preview|drift|up] [FILE | -] [flags]",
  "  Reads the JSON document of a pulumi command from FILE (or stdin when no FILE or `-` is given)",
  "  and writes Markdown for a pull-request comment or an issue.",
  "commands:",
  ...Object.entries(REVIEW_COMMANDS).map(([name, description]) => `  ${name.padEnd(8)}${description}`),
  "flags:",
  ...FLAG_ENTRIES.map(([name, spec]) => `  ${flagName(name, spec)}  ${spec.description} (default: ${spec.defaultText ?? "none"})`),
  `exit codes: ${EXIT.ok} done; ${EXIT.failOn} refused by --fail-on (after printing); ${EXIT.usage} bad command line; ${EXIT.badInput} unreadable input`,
].join("\n");

export interface ReviewOptions {
  command: ReviewCommand;
  /** The input file, or undefined for stdin. */
  file?: string;
  failOn: FailOn[];
  failOnDrift: boolean;
  skipNoChanges: boolean;
  stack?: string;
  project?: string;
  previous?: string;
  help: boolean;
  version: boolean;
}

export type ParsedReviewArgs = { ok: true; options: ReviewOptions } | { ok: false; message: string };

function isFailOn(value: string): value is FailOn {
  return (FAIL_ON_PREVIEW as readonly string[]).includes(value);
}

function isCommand(value: string | undefined): value is ReviewCommand {
  return value !== undefined && Object.hasOwn(REVIEW_COMMANDS, value);
}

/** Parses the bin's arguments; never throws, never exits. */
export function parseReviewArgs(argv: readonly string[]): ParsedReviewArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: REVIEW_FLAGS });
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const { values } = parsed;
  const positionals = [...parsed.positionals];
  let command: ReviewCommand = values.drift === true ? "drift" : "preview";
  if (isCommand(positionals[0])) {
    const named = positionals.shift() as ReviewCommand;
    if (values.drift === true && named !== "drift") return { ok: false, message: `--drift cannot go with the ${named} command` };
    command = named;
  }
  if (positionals.length > 1) {
    return { ok: false, message: `expected at most one input file, got ${positionals.length}: ${positionals.join(" ")}` };
  }
  const failOn: FailOn[] = [];
  let failOnDrift = false;
  if (values["fail-on"] !== undefined) {
    for (const item of values["fail-on"].split(",").map((s) => s.trim())) {
      if (command === "drift") {
        if (item !== FAIL_ON_DRIFT) return { ok: false, message: `with drift, --fail-on takes only "${FAIL_ON_DRIFT}"; "${item}" is not it` };
        failOnDrift = true;
        continue;
      }
      if (command === "up") return { ok: false, message: "--fail-on does not apply to the up command: `pulumi up` sets its own exit code" };
      if (!isFailOn(item)) {
        return {
          ok: false,
          message: `--fail-on takes a comma-separated list of ${FAIL_ON_PREVIEW.join(", ")} (or ${FAIL_ON_DRIFT}, with drift); "${item}" is not one`,
        };
      }
      if (!failOn.includes(item)) failOn.push(item);
    }
  }
  if (values.previous !== undefined && command !== "up") return { ok: false, message: `--previous goes with the up command only, not ${command}` };
  for (const name of ["stack", "project"] as const) {
    if (values[name] !== undefined && values[name].trim() === "") return { ok: false, message: `--${name} needs a non-empty name` };
  }
  const options: ReviewOptions = {
    command,
    failOn,
    failOnDrift,
    skipNoChanges: values["skip-no-changes"] === true,
    help: values.help === true,
    version: values.version === true,
  };
  if (values.stack !== undefined) options.stack = values.stack;
  if (values.project !== undefined) options.project = values.project;
  if (values.previous !== undefined) options.previous = values.previous;
  const file = positionals[0];
  if (file !== undefined && file !== "-") options.file = file;
  return { ok: true, options };
}
